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
