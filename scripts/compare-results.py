#!/usr/bin/env python3
"""Compares two `kernelagent optimize --json` results of the same problem and search (for example the local
worker against the Ray executor): the same configurations and statuses in the same order, and the same best
configuration. On a GPU two configurations can time within each other's noise, so a different best is
accepted when each best's median lies inside the other run's figure for that configuration +- 3 %
(printed either way). Exit 0 when they agree, 1 when not.

    scripts/compare-results.py LOCAL.json OTHER.json
"""
import json
import sys

NOISE = 0.03


def main(a_path: str, b_path: str) -> int:
    with open(a_path) as f:
        a = json.load(f)
    with open(b_path) as f:
        b = json.load(f)
    name = a.get("problem", {}).get("name", a_path)
    trials_a = [(t["config"], t["status"]) for t in a.get("trial_list", [])]
    trials_b = [(t["config"], t["status"]) for t in b.get("trial_list", [])]
    ok = True
    if trials_a != trials_b:
        print(f"{name}: the trials differ:\n  {trials_a}\n  {trials_b}")
        ok = False
    best_a, best_b = a.get("best") or {}, b.get("best") or {}
    slots_b = sorted({t.get("measured_on", "") for t in b.get("trial_list", [])})
    line = (f"{name}: {len(trials_a)} trials; best {best_a.get('config')} {best_a.get('median_us')} us "
            f"({best_a.get('measured_on')}) vs {best_b.get('config')} {best_b.get('median_us')} us "
            f"({best_b.get('measured_on')}); measured on {', '.join(slots_b)}")
    if best_a.get("config") != best_b.get("config"):
        # Each run's search-time figure of the configuration the other chose.
        search_a = {json.dumps(t["config"], sort_keys=True): t.get("median_us") for t in a.get("trial_list", [])}
        search_b = {json.dumps(t["config"], sort_keys=True): t.get("median_us") for t in b.get("trial_list", [])}
        ka, kb = json.dumps(best_a.get("config"), sort_keys=True), json.dumps(best_b.get("config"), sort_keys=True)
        close = all(x and y and abs(x - y) <= NOISE * min(x, y)
                    for x, y in ((search_a.get(ka), search_a.get(kb)), (search_b.get(ka), search_b.get(kb))))
        line += "; different bests " + ("within the noise (3 %)" if close else "NOT within the noise")
        ok = ok and close
    print(line + ("" if ok else "  <-- disagree"))
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
