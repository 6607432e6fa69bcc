#!/usr/bin/env python3
"""Usage: fuzzy_curvature.py BEAGLE_BINARY TAG. Runs `BIN analyse --json` on a copy of fixtures/strategies; prints the fuzzy law's growth and curvature (the test's), its status, and the run's disturbance notes."""
import json, subprocess, sys, tempfile, shutil, time
bin_, tag = sys.argv[1], sys.argv[2]
d = tempfile.mkdtemp()
shutil.copytree(str(__import__('pathlib').Path(__file__).resolve().parents[2] / 'fixtures/strategies'), d + '/s')
t = time.time()
out = subprocess.run([bin_, 'analyse', '--json', '.'], cwd=d + '/s', capture_output=True, text=True)
wall = time.time() - t
r = json.loads(out.stdout)
res = {x['element']: x for x in r['results']}
def ev(law, p):
    o = subprocess.run([bin_, 'stoex', 'eval', law, '--var', f'pattern.NUMBER_OF_ELEMENTS={p}', '--var', 'items.NUMBER_OF_ELEMENTS=500'], capture_output=True, text=True)
    return float(o.stdout.strip())
k = '_st_FuzzyMatcher_match/_oro4gG3fEdy4YaaT-RYrLQ'
law = res[k]['expression']
dist = [x['message'] for x in r['diagnostics'] if 'disturbed' in x.get('message', '')]
try:
    f8, f28, f48 = ev(law, 8), ev(law, 28), ev(law, 48)
except Exception as e:
    print(f"{tag}\twall={wall:.1f}\tEVAL FAILED\t{res[k]['status']}\t{law}\tdisturbed_notes={len(dist)}", flush=True)
    sys.exit(0)
print(f"{tag}\twall={wall:.1f}\tgrowth={f48/f8:.2f}\tcurv={(f48-f28)/(f28-f8):.2f}\t{res[k]['status']}\t{law}\tdisturbed_notes={len(dist)}", flush=True)
shutil.rmtree(d)
