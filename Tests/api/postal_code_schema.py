"""A country's postal-code format as JSON Schema, for Tests/api/openapi_address_rules.py.

The server matches a trimmed postal code against the format's ICU pattern whole, ignoring case, and only
when the code is ASCII (PostalCodeRule); a JSON number is read as its digits. Here the same format becomes
an ECMA pattern that spells case out (`[Aa]`) and `\\d` as `[0-9]`, and the numbers whose digits fit it
become integer ranges, worked out on an automaton of the pattern.
"""
import re
from re import _constants as C
from re import _parser as sre_parse


def without_edge_assertions(pattern: str) -> str:
    """`(?:^|\\b)` and `(?:$|\\b)` stand at the ends of a pattern matched whole, where they always hold."""
    return pattern.replace("(?:^|\\b)", "").replace("(?:$|\\b)", "")


def case_insensitive(pattern: str) -> str:
    """The pattern as ECMA reads it with case spelled out, for ASCII text: what ICU's case-insensitive
    match of it takes."""
    pattern = without_edge_assertions(pattern)
    out = []
    index = 0
    in_class = False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            escaped = pattern[index + 1]
            if escaped == "d":
                out.append("0-9" if in_class else "[0-9]")
            else:
                out.append(pattern[index:index + 2])
            index += 2
            continue
        if in_class:
            if char == "]":
                in_class = False
                out.append(char)
            elif char.isalpha() and pattern[index + 1:index + 2] == "-" and pattern[index + 2:index + 3].isalpha():
                low, high = char, pattern[index + 2]
                out.append(f"{low.upper()}-{high.upper()}{low.lower()}-{high.lower()}")
                index += 3
                continue
            elif char.isalpha():
                out.append(char.upper() + char.lower())
            else:
                out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
        elif char == "(" and pattern[index + 1:index + 3] == "?:":
            out.append("(?:")
            index += 3
            continue
        elif char.isalpha():
            out.append(f"[{char.upper()}{char.lower()}]")
        else:
            out.append(char)
        index += 1
    return "".join(out)


class _NFA:
    """Thompson automaton over single characters, built from Python's parse of the pattern."""

    def __init__(self) -> None:
        self.epsilon: list[list[int]] = []
        self.edges: list[list[tuple[object, int]]] = []

    def state(self) -> int:
        self.epsilon.append([])
        self.edges.append([])
        return len(self.epsilon) - 1

    def build(self, items) -> tuple[int, int]:
        start = self.state()
        current = start
        for op, arg in items:
            first, last = self.item(op, arg)
            self.epsilon[current].append(first)
            current = last
        return start, current

    def item(self, op, arg) -> tuple[int, int]:
        if op in (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY):
            start, end = self.state(), self.state()
            self.edges[start].append(((op, arg), end))
            return start, end
        if op == C.SUBPATTERN:
            return self.build(arg[-1])
        if op == C.BRANCH:
            start, end = self.state(), self.state()
            for branch in arg[1]:
                first, last = self.build(branch)
                self.epsilon[start].append(first)
                self.epsilon[last].append(end)
            return start, end
        if op in (C.MAX_REPEAT, C.MIN_REPEAT):
            low, high, body = arg
            start = self.state()
            current = start
            for _ in range(low):
                first, last = self.build(body)
                self.epsilon[current].append(first)
                current = last
            end = self.state()
            self.epsilon[current].append(end)
            if high == C.MAXREPEAT:
                first, last = self.build(body)
                self.epsilon[current].append(first)
                self.epsilon[last].append(current)
            else:
                for _ in range(high - low):
                    first, last = self.build(body)
                    self.epsilon[current].append(first)
                    current = last
                    self.epsilon[current].append(end)
            return start, end
        raise ValueError(f"unsupported pattern item {op}")


def _admits(test, char: str) -> bool:
    op, arg = test
    if op == C.ANY:
        return char != "\n"
    if op == C.LITERAL:
        return ord(char) == arg
    if op == C.NOT_LITERAL:
        return ord(char) != arg
    negate = False
    found = False
    for kind, value in arg:
        if kind == C.NEGATE:
            negate = True
        elif kind == C.LITERAL:
            found |= ord(char) == value
        elif kind == C.RANGE:
            found |= value[0] <= ord(char) <= value[1]
        elif kind == C.CATEGORY and value == C.CATEGORY_DIGIT:
            found |= char.isdigit() and char.isascii()
        else:
            raise ValueError(f"unsupported class item {kind}")
    return found != negate


def digit_ranges(pattern: str, longest: int = 15) -> list[tuple[int, int]]:
    """Every non-negative integer of at most `longest` digits whose decimal digits the (ASCII) pattern matches
    whole, as sorted, merged ranges."""
    nfa = _NFA()
    start, accept = nfa.build(sre_parse.parse(without_edge_assertions(pattern)))

    def closure(states) -> frozenset[int]:
        seen = set(states)
        stack = list(states)
        while stack:
            for target in nfa.epsilon[stack.pop()]:
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        return frozenset(seen)

    def step(states: frozenset[int], char: str) -> frozenset[int]:
        return closure({target for state in states for test, target in nfa.edges[state] if _admits(test, char)})

    memo: dict[tuple[frozenset[int], int], list[tuple[int, int]]] = {}

    def suffixes(states: frozenset[int], length: int) -> list[tuple[int, int]]:
        """Values of the `length`-digit suffixes accepted from `states`."""
        if not states:
            return []
        if length == 0:
            return [(0, 0)] if accept in states else []
        key = (states, length)
        if key not in memo:
            scale = 10 ** (length - 1)
            ranges: list[tuple[int, int]] = []
            for digit in range(10):
                for low, high in suffixes(step(states, str(digit)), length - 1):
                    low, high = digit * scale + low, digit * scale + high
                    if ranges and ranges[-1][1] + 1 == low:
                        ranges[-1] = (ranges[-1][0], high)
                    else:
                        ranges.append((low, high))
            memo[key] = ranges
        return memo[key]

    initial = closure({start})
    result: list[tuple[int, int]] = []
    for length in range(1, longest + 1):
        floor = 0 if length == 1 else 10 ** (length - 1)
        for low, high in suffixes(initial, length):
            low = max(low, floor)
            if low > high:
                continue
            if result and result[-1][1] + 1 == low:
                result[-1] = (result[-1][0], high)
            else:
                result.append((low, high))
    return result


def check(pattern: str, examples: list[str]) -> list[str]:
    """Where the ECMA pattern and the integer ranges disagree with Python's own case-insensitive reading of
    the format (a stand-in for ICU's on ASCII text): the examples, their case and digit variants, and every
    number up to five digits."""
    problems = []
    original = re.compile(f"(?:{without_edge_assertions(pattern)})", re.IGNORECASE | re.ASCII)
    spelled = re.compile(case_insensitive(pattern))
    probes = set()
    for example in examples:
        probes.update({example, example.lower(), example.upper(), example + "0", example[:-1], "x" + example})
        probes.update(example.replace(digit, other) for digit in "0123456789" for other in "19" if digit in example)
    for probe in sorted(probes):
        if bool(original.fullmatch(probe)) != bool(spelled.fullmatch(probe)):
            problems.append(f"{pattern!r} and {probe!r}: the spelled pattern reads it differently")
    ranges = digit_ranges(pattern, longest=5)
    for number in range(100_000):
        in_ranges = any(low <= number <= high for low, high in ranges)
        if in_ranges != bool(original.fullmatch(str(number))):
            problems.append(f"{pattern!r} and the number {number}: the ranges read it differently")
            break
    return problems
