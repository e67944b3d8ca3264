#!/usr/bin/env python3
"""Charts a vow-benchmarks JSON file as Vow's ratio to each baseline, one group per scenario.

Usage: python3 Benchmarks/Scripts/chart.py benchmark-results.json Documentation/Images/performance.png

A ratio below 1 means Vow took less time (or memory) than the baseline. Where a scenario has a
ratio target, a black diamond marks it on the bar of the baseline it refers to. Where the file
has the spread of the per-round ratios (`spreads`, written since adaptive rounds), a whisker
spans their first to third quartile, and a ratio that did not settle is labelled so; older files
chart without them.
"""

import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display on servers and CI
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

# One colour per baseline, the same in every scenario; others get the next free colour.
COLOURS = {
    "Dispatch": "#4c72b0",
    "Swift concurrency": "#dd8452",
    "SwiftNIO": "#55a868",
    "hand-written floor": "#8172b3",
    "allocation": "#937860",
    "collect floor": "#da8bc3",
}
# No red among them: red marks a missed target.
SPARE_COLOURS = ["#8c8c8c", "#ccb974", "#64b5cd", "#1b9e77"]


def colour(name):
    if name not in COLOURS:
        COLOURS[name] = SPARE_COLOURS[len(COLOURS) % len(SPARE_COLOURS)]
    return COLOURS[name]


def quartiles(scenario, baseline):
    """The first and third quartiles of Vow's per-round ratios to `baseline`, and whether they
    settled; None for files without spreads, or quartiles a log axis cannot show."""
    spread = (scenario.get("spreads") or {}).get(baseline) or {}
    q1, q3 = spread.get("q1"), spread.get("q3")
    if not all(isinstance(value, (int, float)) and value > 0 for value in (q1, q3)):
        return None
    return q1, q3, spread.get("settled", True)


def label(scenario):
    return f'{scenario["name"]}\n({scenario["unit"]})'


def chart(report, output):
    scenarios = [s for s in report["scenarios"] if s.get("ratios")]
    if not scenarios:
        sys.exit("chart.py: the file has no scenario with a baseline")

    bar_slot = 0.8
    row_height = 0.75
    figure_height = 1.5 + row_height * sum(max(len(s["ratios"]), 1) for s in scenarios) / 1.6
    fig, axes = plt.subplots(figsize=(10, figure_height))

    ticks, tick_labels, seen = [], [], set()
    all_ratios = [1.0]
    for index, scenario in enumerate(scenarios):
        centre = -index  # first scenario at the top
        ratios = [(name, value) for name, value in scenario["ratios"].items() if value is not None]
        height = bar_slot / max(len(ratios), 1)
        target = scenario.get("target") or {}
        for position, (baseline, ratio) in enumerate(ratios):
            y = centre + bar_slot / 2 - height * (position + 0.5)
            axes.barh(
                y,
                ratio,
                height=height * 0.9,
                color=colour(baseline),
                label=baseline if baseline not in seen else None,
            )
            seen.add(baseline)
            has_target = target.get("baseline") == baseline and target.get("ratio") is not None
            spread = quartiles(scenario, baseline)
            text = f"{ratio:.2f}"
            # Past the target's marker and the whisker when they are further out, so that they
            # hide no digits.
            text_at = max(ratio, target["ratio"] * 1.04) if has_target else ratio
            if spread is not None:
                q1, q3, settled = spread
                axes.plot(
                    [q1, q3],
                    [y, y],
                    color="black",
                    linewidth=1,
                    marker="|",
                    markersize=5,
                    label="per-round ratios, 1st to 3rd quartile" if "spread" not in seen else None,
                    zorder=2,
                )
                seen.add("spread")
                all_ratios += [q1, q3]
                text_at = max(text_at, q3)
                if not settled:
                    text += " unsettled"
            axes.annotate(
                text,
                (text_at, y),
                xytext=(3, 0),
                textcoords="offset points",
                va="center",
                fontsize=7,
            )
            all_ratios.append(ratio)
            if has_target:
                met = ratio <= target["ratio"]
                axes.plot(
                    target["ratio"],
                    y,
                    marker="D",
                    markersize=6,
                    color="black" if met else "#c44e52",
                    markeredgecolor="black",
                    linestyle="none",
                    label="target (red when missed)" if "target" not in seen else None,
                    zorder=3,
                )
                seen.add("target")
                all_ratios.append(target["ratio"])
        ticks.append(centre)
        tick_labels.append(label(scenario))

    axes.axvline(1.0, color="black", linewidth=1)
    axes.set_xscale("log")
    low, high = min(all_ratios), max(all_ratios)
    axes.set_xlim(low / 1.6, high * 1.8)
    steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
    axes.xaxis.set_major_locator(ticker.FixedLocator([v for v in steps if low / 1.6 <= v <= high * 1.8]))
    axes.xaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
    axes.xaxis.set_minor_formatter(ticker.NullFormatter())
    axes.set_yticks(ticks)
    axes.set_yticklabels(tick_labels, fontsize=8)
    axes.set_ylim(-len(scenarios) + 0.4, 0.6)
    axes.set_xlabel("Vow ÷ baseline (medians over the rounds; log scale; below 1: Vow is faster or smaller)")
    axes.grid(axis="x", which="both", alpha=0.3)
    machine = report.get("machine", {})
    mode = "quick run" if report.get("quick") else "full run"
    axes.set_title(
        f'Vow against its baselines — {mode}, {report.get("date", "")}, '
        f'{machine.get("cores", "?")} cores, Swift {report.get("swift", "?")}',
        fontsize=10,
    )
    # Wherever it covers the least: with whiskers, no corner is reliably free.
    axes.legend(loc="best", fontsize=8)
    fig.tight_layout()

    directory = os.path.dirname(output)
    if directory:
        os.makedirs(directory, exist_ok=True)
    fig.savefig(output, dpi=150)
    print(f"chart written to {output}")


def main(arguments):
    if len(arguments) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    with open(arguments[0], encoding="utf-8") as file:
        report = json.load(file)
    chart(report, arguments[1])


if __name__ == "__main__":
    main(sys.argv[1:])
