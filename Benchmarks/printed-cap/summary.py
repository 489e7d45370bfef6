"""Summary of Benchmarks/printed-cap/run.sh's results: per scenario and landmark source, the
scans measured, CVAI's error median / worst, within 0.3 and 0.5, the truth inside the 95 %
interval, and each refusal's message."""
import json
import statistics
import sys

lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("| scenario | landmarks | measured | CVAI error median / worst | within 0.3 | within 0.5 | truth in the interval | circumference error median / worst mm | seconds median |")
print("|---|---|---|---|---|---|---|---|---|")
for scenario in ("ideal", "restless"):
    rows = [l for l in lines if l["scenario"] == scenario]
    for source in ("automatic", "picks"):
        done = [l[source] for l in rows if "refused" not in l[source]]
        errors = [abs(d["cvaiError"]) for d in done]
        inside = [d for d in done if d["cvaiInterval"] and d["cvaiInterval"][0] <= d["cvai"] - d["cvaiError"] <= d["cvaiInterval"][1]]
        circ = [abs(d["circumferenceErrorMM"]) for d in done]
        secs = [l["seconds"] for l in rows]
        fmt = lambda xs: f"{statistics.median(xs):.2f} / {max(xs):.2f}" if xs else "–"
        print(f"| {scenario} | {source} | {len(done)}/{len(rows)} | {fmt(errors)} | {sum(e <= 0.3 for e in errors)} | "
              f"{sum(e <= 0.5 for e in errors)} | {len(inside)}/{len(done)} | {fmt(circ)} | {statistics.median(secs):.1f} |")
for l in lines:
    for source in ("automatic", "picks"):
        if "refused" in l[source]:
            print(f"- seed {l['seed']} {l['scenario']}, {source}: {l[source]['refused']}")
