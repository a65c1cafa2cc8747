#!/usr/bin/env python3
"""Every form control comes from the form kit.

A control (any input, hidden ones too, a select, a textarea), a label and a field's error or hint
paragraph are written once, in Views/partials (control.leaf, field.leaf, compact-field.leaf, fieldset.leaf,
and csrf.leaf for the form token), from `FormField` and `FormGroup` values; a template anywhere else that
writes one by hand fails this check. A page-wide alert (`class="error" role="alert"`) is not a field's error and is allowed.
Web controllers answer a refused form through the kit too: a `catch` of `ValidationFailure` in a web
controller, outside `Web/FormKit.swift`, must rethrow (rewording a message), never answer by itself.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
views = root / "Sources/LocifyServer/Resources/Views"
kit = {
    "partials/control.leaf",
    "partials/field.leaf",
    "partials/compact-field.leaf",
    "partials/fieldset.leaf",
    "partials/csrf.leaf",
}

control = re.compile(r"<(select|textarea|input)\b")
label = re.compile(r"<label\b")
field_paragraph = re.compile(r"<p class=\"(error|hint)\"[^>]*\bid=")

problems = []
for template in sorted(views.rglob("*.leaf")):
    name = template.relative_to(views).as_posix()
    if name in kit:
        continue
    for number, line in enumerate(template.read_text().splitlines(), 1):
        for pattern, what in (
            (control, "a form control"),
            (label, "a label"),
            (field_paragraph, "a field's error or hint"),
        ):
            if pattern.search(line):
                problems.append(f"{name}:{number}: writes {what} by hand; give the page a FormField instead")

# A refused form answers through request.handleForm / handleContactForm / handleAction.
sources = root / "Sources/LocifyServer"
for source in sorted(sources.rglob("*WebController.swift")):
    text = source.read_text()
    for match in re.finditer(r"catch let (\w+) as ValidationFailure \{(.*?)\n\s*\}", text, re.S):
        if "throw " not in match.group(2):
            number = text[: match.start()].count("\n") + 1
            problems.append(
                f"{source.relative_to(root)}:{number}: answers a refused form by hand; "
                "use request.handleForm (or handleContactForm, handleAction)"
            )

if problems:
    print("\n".join(problems))
    sys.exit(1)
print("Every form control, label and field message comes from the form kit.")
