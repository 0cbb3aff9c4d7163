#pragma once
// A run's output folder (optimize's --out, a bench's folder, a sweep's --work): the files a run writes there,
// a lock held for the run, and writes that a reader never sees half done. The folder's kernel.py and
// result.json are always one run's: a run removes what an earlier run left there before it writes anything,
// writes each file whole (to a temporary file in the folder, then renamed over the old one), and no two
// runs write to one folder at once.

#include <filesystem>
#include <string>

namespace kernelagent {

// The folder's lock (DIR/.kernelagent.lock, flock'ed for as long as this object lives; the file stays),
// holding the pid, host, start time and command of the run that has it. Dies with the process, so a
// killed run leaves no stale lock.
class OutputLock {
 public:
  // Creates `dir` and takes its lock. Throws UserError(bad_input) naming the run that holds it when another
  // one does, or naming the folder when it cannot be created.
  OutputLock(const std::filesystem::path& dir, const std::string& command);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

// Throws UserError(bad_input) when `problem` is a file that a run writing to `out_dir` writes or removes:
// kernel.py, result.json, bench.json, the worker logs, the lock, anything under candidates/ or profiles/
// (e.g. a problem named kernel.py in --out, or --out its own folder when it is named kernel.py).
void refuse_to_write_over(const std::filesystem::path& problem, const std::filesystem::path& out_dir);

// Removes what an earlier run left in `out_dir` that would not match this run's result: a kernel.py that
// KernelAgent generated, a result.json of its schema, the candidates cN.py and their profiles/cN/.
// Nothing else in the folder is touched.
void clear_earlier_run(const std::filesystem::path& out_dir);

// Writes `text` to a temporary file beside `path`, then renames it over `path`: a reader (or a run killed
// meanwhile) sees the old file or the new one, never a part. Throws UserError(bad_input) naming the path.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace kernelagent
