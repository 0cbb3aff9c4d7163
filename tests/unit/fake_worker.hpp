#pragma once
// The stand-in worker (tests/data/fake_workers/fake_worker.py, plain python3): it answers the protocol
// without torch, fails on demand by candidate name, and logs every request so tests can count them.

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "kernelagent/measure/worker_client.hpp"
#include "test_data.hpp"

namespace kernelagent::test {

struct FakeWorker {
  std::filesystem::path dir;
  std::filesystem::path log;
  WorkerCommand command;

  explicit FakeWorker(const std::string& name, const std::string& mode = "") {
    dir = temp_dir(name);
    log = dir / "requests.log";
    command.argv = {"python3", (data_dir() / "fake_workers" / "fake_worker.py").string()};
    command.env = {{"FAKE_LOG", log.string()}, {"FAKE_MODE", mode}};
    command.stderr_path = (dir / "worker.err").string();
  }
  // Every request so far, as "op" or "op candidate".
  std::vector<std::string> requests() const {
    std::ifstream in(log);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
  int count(const std::string& request) const {
    const auto r = requests();
    return static_cast<int>(std::count(r.begin(), r.end(), request));
  }
  int count_op(const std::string& op) const {
    const auto r = requests();
    return static_cast<int>(
        std::count_if(r.begin(), r.end(), [&](const std::string& s) { return s.rfind(op, 0) == 0; }));
  }
};

}  // namespace kernelagent::test
