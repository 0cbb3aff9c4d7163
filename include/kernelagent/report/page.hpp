#pragma once
// The HTML document around a report: its styles inline and a content security policy that allows nothing
// to be loaded (no script, no font, no image, no style sheet from anywhere), so the file is the whole page,
// opens anywhere, and a browser says so if something in it ever tries to load.

#include <string>
#include <string_view>

namespace kernelagent::report {

// A complete document; `body` is HTML, `title` is escaped.
std::string document(std::string_view title, std::string_view body);

}  // namespace kernelagent::report
