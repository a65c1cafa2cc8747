#!/usr/bin/env python3
"""Writes the address operations' rules across fields into openapi.json:

- latitude and longitude come together, or neither;
- a new address has a street, a city or a country, and an update that sends all three leaves one;
- the country is `country`, or `country_id` when `country` is left out or null (a blank `country` is none).

A postal code must also fit its country's format. That rule is not stated here: one alternative per
format (83 of them) is beyond what schemathesis's schema engine combines, so the fuzz allows 422 on the
address operations for it alone (Tests/api/schemathesis.toml).

Run it after changing the address schemas (it is idempotent):
    python3 Tests/api/openapi_address_rules.py
"""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "Sources/LocifyServer/Resources/OpenAPI/openapi.json"

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


def main() -> None:
    document = json.loads(DOCUMENT.read_text())
    schemas = document["components"]["schemas"]
    schemas.pop("AddressCountryRule", None)

    coordinate_blank = {"anyOf": [{"type": "null"}, text(f"^{NUMBER_SPACE}*$"),
                                  text("^[\\t \\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]*$")]}
    schemas["AddressCoordinatesRule"] = {
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
    properties = schemas["AddressInput"].get("properties") or schemas["AddressInput"]["allOf"][0]["properties"]
    for name in ("latitude", "longitude"):
        alternatives = properties[name]["anyOf"]
        if not any(alternative.get("pattern", "").startswith("^[\\t \\u00a0") for alternative in alternatives):
            alternatives.append(coordinate_blank["anyOf"][2])
    base = schemas["AddressInput"] if "properties" in schemas["AddressInput"] else schemas["AddressInput"]["allOf"][0]
    schemas["AddressInput"] = {
        "allOf": [
            base,
            {"$ref": "#/components/schemas/AddressCoordinatesRule"},
        ]
    }

    # The very pattern of the country property, so the schema engine sees one rule, not two to reconcile.
    any_country = next(alternative for alternative in base["properties"]["country"]["anyOf"]
                       if alternative.get("type") == "string" and "pattern" in alternative)
    has_place = [
        {"required": ["street"], "properties": {"street": {"anyOf": [text(NOT_BLANK), WHOLE]}}},
        {"required": ["city"], "properties": {"city": {"anyOf": [text(NOT_BLANK), WHOLE]}}},
        country_is(any_country),
    ]
    schemas["NewAddressInput"] = {
        "allOf": [
            {"$ref": "#/components/schemas/AddressInput"},
            {"description": "A new address needs a street, a city or a country.", "anyOf": has_place},
        ]
    }
    schemas["AddressUpdateInput"] = {
        "description": "An update that sends street, city and country (or country_id) leaves at least one; one "
        "that leaves the address without any because of what it keeps answers 409.",
        "allOf": [
            {"$ref": "#/components/schemas/AddressInput"},
            {
                "anyOf": [
                    {"not": {"required": ["street"]}},
                    {"not": {"required": ["city"]}},
                    {"not": {"anyOf": [{"required": ["country"]}, {"required": ["country_id"]}]}},
                ]
                + has_place
            },
        ],
    }
    document["paths"]["/api/addresses/{id}"]["put"]["requestBody"]["content"]["application/json"]["schema"] = {
        "$ref": "#/components/schemas/AddressUpdateInput"
    }
    DOCUMENT.write_text(json.dumps(document, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
