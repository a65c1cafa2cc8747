#!/usr/bin/env python3
"""Writes the address operations' rules across fields into openapi.json:

- latitude and longitude come together, or neither;
- a new address has a street, a city or a country, and an update that sends all three leaves one;
- the country is `country`, or `country_id` when `country` is left out or null (a blank `country` is none);
- a postal code fits its country's format (one alternative per format, from the address formats the server
  ships; Tests/api/postal_code_schema.py turns each into a pattern and integer ranges).

Run it after changing the address schemas or formats (it is idempotent):
    python3 Tests/api/openapi_address_rules.py
`--check` changes nothing and fails when openapi.json is not what it would write, or when a format's
pattern or ranges read a probe differently from the format itself (.ci/run runs it).
"""
import json
import sys
from pathlib import Path

from postal_code_schema import case_insensitive, check, digit_ranges

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "Sources/LocifyServer/Resources/OpenAPI/openapi.json"
FORMATS = ROOT / "Sources/LocifyCore/Resources/address-formats.json"
COUNTRIES = ROOT / "Sources/LocifyCore/Resources/countries.json"

# Swift's .whitespacesAndNewlines (what the server trims text by) and .whitespaces plus tab (numbers).
TRIMMED = "[\\t\\n\\u000b\\u000c\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"
NUMBER_SPACE = "[ \\t]"
LATITUDE = "[+-]?0*(([0-9]|[1-8][0-9])(\\.[0-9]*)?|90(\\.0*)?|\\.[0-9]+)"
LONGITUDE = "[+-]?0*(([0-9]|[1-9][0-9]|1[0-7][0-9])(\\.[0-9]*)?|180(\\.0*)?|\\.[0-9]+)"
NOT_BLANK = "^[^\\u0000]*[^\\t\\n\\u000b\\u000c\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\u0000][^\\u0000]*$"
WHOLE = {"type": "integer", "minimum": -999999999999999, "maximum": 999999999999999}


def text(pattern: str) -> dict:
    return {"type": "string", "pattern": pattern}


BLANK = text(f"^{TRIMMED}*$")
NOTHING = {"anyOf": [{"type": "null"}, BLANK]}


def country_is(schema: dict) -> dict:
    """The country the body gives (`country`, or `country_id` when `country` is left out or null)
    fits `schema`."""
    return {
        "anyOf": [
            {"required": ["country"], "properties": {"country": schema}},
            {"required": ["country_id"], "properties": {"country": {"type": "null"}, "country_id": schema}},
        ]
    }


def place_and_postal_code_rule(any_postal_code: dict, without_country: list[dict], description: str) -> dict:
    """The postal code fits the format of the country the body gives: one alternative per format, one for
    the countries without one, and for no country, one for each of `without_country` (what the body needs
    then). Both rules are in one list because schemathesis's engine multiplies the alternatives of rules
    side by side, and a schema of hundreds of branches takes it seconds to build per negative example.
    Each alternative names the postal code (the ones that allow any, with its very schema): the engine
    gives up on branches of different shapes."""
    formats = json.loads(FORMATS.read_text())["countries"]
    codes_by_format: dict[str | None, list[str]] = {}
    for country in json.loads(COUNTRIES.read_text()):
        postal_format = formats.get(country["iso"], {}).get("zip")
        codes_by_format.setdefault(postal_format, []).extend([country["iso"], country["iso3"]])

    def codes(of: list[str]) -> dict:
        spelled = "|".join("".join(f"[{letter}{letter.lower()}]" for letter in code) for code in sorted(of))
        return text(f"^{TRIMMED}*({spelled}){TRIMMED}*$")

    def fitting(postal_format: str) -> dict:
        alternatives = [{"type": "null"}, BLANK, text(f"^{TRIMMED}*(?:{case_insensitive(postal_format)}){TRIMMED}*$")]
        alternatives += [{"type": "integer", "minimum": low, "maximum": high}
                         for low, high in digit_ranges(postal_format)]
        return {"anyOf": alternatives}

    no_country = [{"required": ["country"], "properties": {"country": BLANK}},
                  {"properties": {"country": {"type": "null"}, "country_id": NOTHING}}]
    alternatives = [
        {**needed, "anyOf": no_country, "properties": {**needed.get("properties", {}), "postal_code": any_postal_code}}
        for needed in without_country
    ]
    alternatives.append(
        {**country_is(codes(codes_by_format.pop(None))), "properties": {"postal_code": any_postal_code}})
    for postal_format, its_codes in sorted(codes_by_format.items()):
        alternatives.append({**country_is(codes(its_codes)), "properties": {"postal_code": fitting(postal_format)}})
    return {
        "description": description + " A postal code fits the format of the country given (codes in any case, "
        "a number read as its digits, surrounding space trimmed); countries without a format take any.",
        "anyOf": alternatives,
    }


def check_formats() -> list[str]:
    formats = json.loads(FORMATS.read_text())["countries"]
    problems = []
    for entry in {entry["zip"]: entry for entry in formats.values() if "zip" in entry}.values():
        problems += check(entry["zip"], entry.get("zipex", "").split(","))
    return problems


def written() -> str:
    document = json.loads(DOCUMENT.read_text())
    schemas = document["components"]["schemas"]
    schemas.pop("AddressCountryRule", None)

    coordinate_blank = {"anyOf": [{"type": "null"}, text(f"^{NUMBER_SPACE}*$"),
                                  text("^[\\t \\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]*$")]}
    coordinates_rule = {
        "description": "Latitude and longitude come together, or neither.",
        "anyOf": [
            {"properties": {"latitude": coordinate_blank, "longitude": coordinate_blank}},
            {
                "required": ["latitude", "longitude"],
                "properties": {
                    "latitude": {"anyOf": [{"type": "number", "minimum": -90, "maximum": 90},
                                           text(f"^{NUMBER_SPACE}*{LATITUDE}{NUMBER_SPACE}*$")]},
                    "longitude": {"anyOf": [{"type": "number", "minimum": -180, "maximum": 180},
                                            text(f"^{NUMBER_SPACE}*{LONGITUDE}{NUMBER_SPACE}*$")]},
                },
            },
        ],
    }
    base = schemas["AddressInput"] if "properties" in schemas["AddressInput"] else schemas["AddressInput"]["allOf"][0]
    properties = base["properties"]
    for name in ("latitude", "longitude"):
        alternatives = properties[name]["anyOf"]
        if not any(alternative.get("pattern", "").startswith("^[\\t \\u00a0") for alternative in alternatives):
            alternatives.append(coordinate_blank["anyOf"][2])
    # Which countries there are is said once, by the country alternatives of the rule below: a country
    # property of its own pattern would meet each alternative's pattern, and the engine can only draw from
    # one of two patterns and filter by the other.
    base["description"] = (
        "A street, a city or a country is needed. Left out on update: keeps its value; sending latitude or "
        "longitude replaces both. Unknown keys are ignored. Every problem comes in one 422. The rules across "
        "fields are stated where this schema is used (NewAddressInput, AddressUpdateInput, AddressCreateInput): "
        "latitude with longitude, a street, city or country, and a postal code that fits its country. An "
        "update that breaks a rule only because of a value it keeps answers 409.")
    properties["country"]["anyOf"] = [{"type": "string"}, {"type": "null"}]
    # Read only when `country` is left out or null; otherwise anything the server reads as text.
    properties["country_id"]["anyOf"] = [{"type": "string"}, WHOLE, {"type": "null"}]
    schemas.pop("AddressPostalCodeRule", None)
    schemas.pop("AddressCoordinatesRule", None)
    # Written out in each input rather than referred to: schemathesis's engine gives up on an `allOf` that
    # mixes references with these rules.
    schemas["AddressInput"] = base

    any_postal_code = {key: value for key, value in base["properties"]["postal_code"].items() if key != "description"}
    street = {"required": ["street"], "properties": {"street": {"anyOf": [text(NOT_BLANK), WHOLE]}}}
    city = {"required": ["city"], "properties": {"city": {"anyOf": [text(NOT_BLANK), WHOLE]}}}
    schemas["NewAddressInput"] = {
        "allOf": [
            base,
            coordinates_rule,
            place_and_postal_code_rule(
                any_postal_code, [street, city], "A new address needs a street, a city or a country."),
        ]
    }
    schemas["AddressUpdateInput"] = {
        "allOf": [
            base,
            coordinates_rule,
            place_and_postal_code_rule(
                any_postal_code,
                [{"not": {"required": ["street"]}}, {"not": {"required": ["city"]}},
                 {"not": {"anyOf": [{"required": ["country"]}, {"required": ["country_id"]}]}}, street, city],
                "An update that sends street, city and country (or country_id) leaves at least one; one that "
                "leaves the address without any, or with a postal code that does not fit its country, because "
                "of what it keeps answers 409."),
        ],
    }
    contact_part = next(part for part in schemas["AddressCreateInput"]["allOf"] if "contact_id" in part.get("required", []))
    schemas["AddressCreateInput"] = {"allOf": [*schemas["NewAddressInput"]["allOf"], contact_part]}
    document["paths"]["/api/addresses/{id}"]["put"]["requestBody"]["content"]["application/json"]["schema"] = {
        "$ref": "#/components/schemas/AddressUpdateInput"
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def main() -> None:
    document = written()
    if "--check" not in sys.argv[1:]:
        DOCUMENT.write_text(document)
        return
    problems = check_formats()
    if document != DOCUMENT.read_text():
        problems.append(f"{DOCUMENT.relative_to(ROOT)} is not what this script writes: run it and commit the result")
    for problem in problems:
        print(problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
