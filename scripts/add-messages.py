#!/usr/bin/env python3
"""Adds or updates Dutch reference messages in locales/nl.json in one quick read-modify-write.

Usage: python3 scripts/add-messages.py '{"key": "Dutch text", ...}'
Other engineers edit the catalogue at the same time: never rewrite nl.json by hand.
"""
import json, sys, os, tempfile
path = os.path.join(os.path.dirname(__file__), '..', 'locales', 'nl.json')
new = json.loads(sys.argv[1])
with open(path, encoding='utf-8') as f:
    data = json.load(f)
data.update(new)
fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
with os.fdopen(fd, 'w', encoding='utf-8') as f:
    json.dump(data, f, ensure_ascii=False, indent=2)
    f.write('\n')
os.replace(tmp, path)
print(f'nl.json: {len(new)} messages added or updated, {len(data) - 1} in all')
