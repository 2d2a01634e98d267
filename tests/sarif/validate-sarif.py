#!/usr/bin/env python3
"""Validates SARIF files against the SARIF 2.1.0 JSON schema.

usage: validate-sarif.py SCHEMA FILE...
Exit 0 when every file is valid, 1 when one is not (errors on stderr), 77 when the
`jsonschema` module is not installed or the schema file is absent (the caller skips;
scripts/fetch-sarif-schema.sh puts the schema in the build tree).
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("validate-sarif: python3 module 'jsonschema' is not installed", file=sys.stderr)
    sys.exit(77)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    if not os.path.isfile(argv[1]):
        print(f"validate-sarif: no schema at {argv[1]} (run scripts/fetch-sarif-schema.sh)",
              file=sys.stderr)
        return 77
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    failed = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"{path}: /{where}: {e.message}", file=sys.stderr)
        failed += bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
