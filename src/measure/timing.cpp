#include "kernelagent/measure/timing.hpp"

#include "kernelagent/core/status.hpp"

namespace kernelagent {

using nlohmann::json;

json Timing::to_json() const {
  json j = {{"status", status}};
  if (!message.empty()) j["message"] = message;
  if (median_us) j["median_us"] = *median_us, j["p10_us"] = *p10_us, j["p90_us"] = *p90_us;
  if (reps) j["reps"] = reps, j["method"] = method;
  return j;
}

Timing timing_of(const Reply& reply, const std::string& target) {
  Timing t;
  if (!reply.ok()) {
    t.status = reply.status;
    t.message = reply.message;
    return t;
  }
  const json r = reply.body.at("results").value(target, json::object());
  t.status = r.value("status", std::string(status::protocol_error));
  t.message = r.value("message", std::string());
  if (t.status == status::ok) {
    t.median_us = r.at("median_us").get<double>();
    t.p10_us = r.value("p10_us", *t.median_us);
    t.p90_us = r.value("p90_us", *t.median_us);
    t.reps = r.value("reps", 0);
    t.method = r.value("method", std::string());
  }
  return t;
}

}  // namespace kernelagent
