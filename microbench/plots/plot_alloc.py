#!/usr/bin/env python3
"""Plot allocation+release cost per size from JMH JSON output.

Usage:
    java -jar microbench/target/benchmarks.jar 'AllocationBenchmark|NettyAllocationBenchmark' \
        -f 1 -wi 3 -w 1s -i 5 -r 1s -rf json -rff alloc.json
    python3 microbench/plots/plot_alloc.py alloc.json alloc.png

Needs matplotlib (pip install matplotlib). One line per benchmark method (and thread count),
x = buffer size (log scale), y = ns per allocate+release (log scale), error bars = JMH's
score error.
"""
import json
import sys
from collections import defaultdict


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    src = argv[1]
    out = argv[2] if len(argv) > 2 else src.rsplit('.', 1)[0] + '.png'
    with open(src) as f:
        runs = json.load(f)
    series = defaultdict(list)
    for run in runs:
        size = run.get('params', {}).get('size')
        if size is None:
            continue
        method = run['benchmark'].rsplit('.', 1)[1]
        label = method if run.get('threads', 1) == 1 else '%s (%d threads)' % (method, run['threads'])
        metric = run['primaryMetric']
        series[label].append((int(size), metric['score'], metric.get('scoreError') or 0.0))

    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5))
    for label in sorted(series):
        points = sorted(series[label])
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        errs = [p[2] if p[2] == p[2] else 0.0 for p in points]  # NaN-safe
        ax.errorbar(xs, ys, yerr=errs, marker='o', capsize=3, label=label)
    ax.set_xscale('log', base=2)
    ax.set_yscale('log')
    ax.set_xlabel('buffer size (bytes)')
    ax.set_ylabel('ns per allocate + release (lower is better)')
    ax.set_title('Rill pooled allocator vs JDK and Netty')
    ax.grid(True, which='both', alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print('wrote', out)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
