#pragma once
// Errors that end a command: bad input, a missing tool, an unsupported problem. Each carries the exit
// code the CLI returns, and a message that names the cause and what to do about it.

#include <stdexcept>
#include <string>
#include <utility>

namespace kernelagent {

enum class ExitCode : int {
  ok = 0,
  no_valid_kernel = 1,  // the search ran but no candidate passed the checks
  bad_input = 2,        // a bad problem file, flag, CSV or path; a problem where the run would write; an
                        // output folder another run holds; a damaged history database
  unsupported = 3,      // no kernel family covers the problem
  environment = 4,      // Python, torch or triton missing; the worker cannot start; the history database
                        // locked by another process past the wait ($KERNELAGENT_DB_WAIT), or not writable
};
// Anything else that ends a command (a bug) exits with 70, the exception's message on stderr.

class UserError : public std::runtime_error {
 public:
  UserError(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// The problem itself failed in the middle of a run: its reference hung, raised or ended the worker while a
// candidate was being checked, so no candidate can be judged. The run ends as a bad input that names the
// problem file, with `status` (bad_problem, out_of_memory, ...) as its result's status; the candidate that
// was being checked is not blamed.
class ProblemFailure : public UserError {
 public:
  ProblemFailure(std::string status, const std::string& message)
      : UserError(ExitCode::bad_input, message), status_(std::move(status)) {}
  const std::string& status() const { return status_; }

 private:
  std::string status_;
};

}  // namespace kernelagent
