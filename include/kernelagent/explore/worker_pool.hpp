#pragma once
// Explore's timing workers: one slot per GPU, each a worker session (a local worker pinned to its GPU with
// CUDA_VISIBLE_DEVICES, or a Ray proxy whose actor holds a GPU of the cluster). The first live slot is the
// home slot: the problem is traced and the baselines and finalists are timed there, so the reported numbers
// come from one GPU. A slot whose worker keeps failing to come up (kFailuresToRetire times in a row: it
// cannot start or restart, cannot load the problem again, or comes up on another device) is taken out of
// the pool with one message, and the others go on; a candidate's own failure (a compile error, a wrong
// result, a crash of its own request) is the candidate's status and never counts against its slot.
// Example: --gpus 0,1,2,3 where GPU 2's worker cannot start: slots gpu0, gpu1, gpu3 measure the search,
// the message says "gpu2 is taken out of the pool: ...", the finalists are timed on gpu0.

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kernelagent/measure/worker_client.hpp"

namespace kernelagent {

struct SlotSpec {
  std::string label;  // "gpu1" (a local GPU), "cpu0"; a Ray slot's label comes from its hello
  WorkerCommand command;
};

struct WorkerSlot {
  std::string label;
  WorkerClient* worker = nullptr;        // owned (below) or borrowed
  std::unique_ptr<WorkerClient> owned;
  int failures_in_a_row = 0;
  int measured = 0;  // candidates this slot measured
  bool retired = false;
  std::string retired_why;
};

class WorkerPool {
 public:
  static constexpr int kFailuresToRetire = 3;

  // One slot on a started worker the caller keeps (a single GPU or the CPU); its label from its hello.
  explicit WorkerPool(WorkerClient& only);
  // A started home worker (borrowed) and the slots to start beside it, in order.
  WorkerPool(WorkerClient& home, const std::string& home_label, std::vector<SlotSpec> others,
             WorkerTimeouts timeouts);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Starts the other slots at once; a slot that does not come up after kFailuresToRetire tries, or comes
  // up on another device than the home slot, is retired. `on_notice` gets each such message.
  void start_others();
  // Loads the problem on every live slot but the home slot (which optimize loads itself), at once; a
  // slot that cannot load it kFailuresToRetire times is retired.
  void load_others(const std::string& problem, int seed, const std::string& precision = "");

  int size() const { return static_cast<int>(slots_.size()); }
  int live() const;
  // The first live slot; throws UserError(environment) when none is left.
  int home() const;
  WorkerClient& worker(int slot) { return *slots_.at(slot).worker; }
  const WorkerSlot& slot(int i) const { return slots_.at(i); }
  bool retired(int slot) const {
    std::lock_guard lock(mu_);  // another slot's thread may be retiring it
    return slots_.at(slot).retired;
  }

  // What a request on `slot` said about the slot: it answered (the count of failures starts again), or its
  // worker could not be brought up (`why`); the third failure in a row retires the slot. Thread-safe.
  void note_answered(int slot);
  void note_failure(int slot, const std::string& why);
  void note_measured(int slot);

  // Where messages about slots go (a slot taken out of the pool); default stderr.
  std::function<void(const std::string&)> on_notice;
  // Every message so far, for result.json's warnings.
  std::vector<std::string> notices() const;

  // Shuts every live worker down (the borrowed home worker too).
  void shutdown();

 private:
  void retire_locked(int slot, const std::string& why);
  bool same_device(const WorkerClient& w) const;

  std::vector<WorkerSlot> slots_;
  WorkerTimeouts timeouts_;
  mutable std::mutex mu_;
  std::vector<std::string> notices_;
};

// What CUDA_VISIBLE_DEVICES pins a worker to the index-th GPU visible to the engine: the index-th entry of
// the engine's own CUDA_VISIBLE_DEVICES when it is set and that long, else the index.
// Example: index 1 with CUDA_VISIBLE_DEVICES=4,6 -> "6".
std::string visible_device(int index);
// The label of a local slot on the index-th visible GPU: "gpu" + visible_device(index).
std::string local_gpu_label(int index);
// What a worker's hello says its slot is: a Ray proxy's "ray:NODE/gpuID" (or "ray:NODE/cpuSLOT"), else
// `fallback`.
std::string label_from_hello(const nlohmann::json& hello, const std::string& fallback);

}  // namespace kernelagent
