#include <gtest/gtest.h>

#include "kernelagent/core/template.hpp"

using namespace kernelagent;

TEST(Template, FillsEveryPlaceholder) {
  EXPECT_EQ(fill_template("a {{X}} b {{Y}}{{X}}", {{"X", "1"}, {"Y", "2"}}), "a 1 b 21");
}

TEST(Template, MissingValueIsAnError) {
  EXPECT_THROW(fill_template("{{X}} {{Z}}", {{"X", "1"}}), std::runtime_error);
}

TEST(Template, UnusedValueIsAnError) {
  EXPECT_THROW(fill_template("{{X}}", {{"X", "1"}, {"Y", "2"}}), std::runtime_error);
}

TEST(Template, UnclosedPlaceholderIsAnError) { EXPECT_THROW(fill_template("{{X", {}), std::runtime_error); }
