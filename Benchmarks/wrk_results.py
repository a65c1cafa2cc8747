"""Reads the wrk runs listed by common.sh's wrk_round: requests per second, p50 and p99 in ms, errors."""
import re


def parse(path):
    text = open(path).read()
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))

    def percentile(p):
        value, unit = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return rate, percentile(50), percentile(99), int(errors.group(1)) if errors else 0


def rounds(listing):
    """The labels in first-run order, and each round's parsed run by label."""
    labels, by_round = [], {}
    for line in open(listing):
        round_number, label, path = line.rstrip("\n").split("\t")
        if label not in labels:
            labels.append(label)
        by_round.setdefault(round_number, {})[label] = parse(path)
    return labels, by_round


def print_ratio_table(listing, heading):
    """Each route's requests per second, its share of /health's in the same round and p50/p99 latency,
    as medians over the rounds with the range of the shares: the table the load scripts print."""
    import statistics

    labels, by_round = rounds(listing)
    median = statistics.median
    print(heading)
    print(f"{'request':<32} {'req/s':>9} {'of /health':>10} {'range':>11} {'p50 ms':>8} {'p99 ms':>8}")
    for label in labels:
        runs = [measured[label] for measured in by_round.values()]
        ratios = [measured[label][0] / measured["GET /health"][0] for measured in by_round.values()]
        errors = sum(run[3] for run in runs)
        note = f"  ({errors} errors)" if errors else ""
        spread = f"{min(ratios):.0%}-{max(ratios):.0%}"
        print(f"{label:<32} {median(r[0] for r in runs):>9.0f} {median(ratios):>9.0%} {spread:>11} "
              f"{median(r[1] for r in runs):>8.2f} {median(r[2] for r in runs):>8.2f}{note}")


if __name__ == "__main__":
    import sys

    # python3 Benchmarks/wrk_results.py LISTING HEADING
    print_ratio_table(sys.argv[1], sys.argv[2])
