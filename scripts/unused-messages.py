#!/usr/bin/env python3
"""Lists catalogue keys that no source file names (m.key, t('key'), message('key') ...).

Keys used through a prefix (option_, field_, interest_, region_label_, delete_reason_,
delete_solution_, mail_*_) are counted as used when the prefix appears in the code.
Usage: python3 scripts/unused-messages.py [--remove]
"""
import json, os, re, sys, glob
root = os.path.join(os.path.dirname(__file__), '..')
nl = json.load(open(os.path.join(root, 'locales', 'nl.json'), encoding='utf-8'))
code = ''
for pattern in ('src/**/*.ts', 'src/**/*.tsx', 'src/**/*.astro', 'cli/**/*.ts'):
    for f in glob.glob(os.path.join(root, pattern), recursive=True):
        if '/paraglide/' in f:
            continue
        code += open(f, encoding='utf-8').read()
prefixes = ['option_', 'field_', 'interest_', 'region_label_', 'delete_reason_', 'delete_solution_', 'mail_activate_', 'mail_reset_', 'mail_change_', 'mail_reactivate_', 'route_']
unused = []
for key in nl:
    if key == '$schema' or any(key.startswith(p) for p in prefixes):
        continue
    if not re.search(r'\b' + re.escape(key) + r'\b', code):
        unused.append(key)
print('\n'.join(unused) if unused else 'no unused messages')
if '--remove' in sys.argv and unused:
    for f in glob.glob(os.path.join(root, 'locales', '*.json')):
        d = json.load(open(f, encoding='utf-8'))
        for k in unused:
            d.pop(k, None)
        with open(f, 'w', encoding='utf-8') as out:
            json.dump(d, out, ensure_ascii=False, indent=2)
            out.write('\n')
    print(f'removed {len(unused)} keys from every catalogue')
