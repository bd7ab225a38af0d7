"""`dra convert` against kube-apiserver's own conversion, for
tests/cluster/real_manifests.py: each resource.k8s.io object of a file that
the server accepted is created for real through the version it is written
in, read back in every version that serves its kind, and deleted. For each
such version V, `dra convert --to V` of the file must give the server's
object, and `dra convert --to v1` of the server's object in V must give the
server's object in v1 (the way back).

Compared as JSON, after removing what only the server sets (uid,
resourceVersion, creationTimestamp, generation, managedFields; the name it
generates from generateName; the namespace it fills in) and `status` (a
create clears it; convert keeps it, docs/COMPATIBILITY.md). A device taint's
timeAdded that the manifest leaves out is stamped by each side with its own
clock, so it is compared only for being there.
"""

import copy
import json
import os
import subprocess
import tempfile
import urllib.parse

GROUP = 'resource.k8s.io'
TARGETS = ('v1', 'v1beta2', 'v1beta1')
SERVER_FIELDS = ('uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields')


def normalize(obj, original):
    obj = copy.deepcopy(obj)
    meta = obj.setdefault('metadata', {})
    for key in SERVER_FIELDS:
        meta.pop(key, None)
    ometa = original.get('metadata') or {}
    if 'name' not in ometa and 'generateName' in ometa:
        meta.pop('name', None)
    if 'namespace' not in ometa:
        meta.pop('namespace', None)
    obj.pop('status', None)
    if 'timeAdded' not in json.dumps(original):
        strip_time_added(obj)
    return obj


def strip_time_added(value):
    if isinstance(value, dict):
        if 'timeAdded' in value:
            value['timeAdded'] = '<set>'
        for v in value.values():
            strip_time_added(v)
    elif isinstance(value, list):
        for v in value:
            strip_time_added(v)


def dra_convert(dra, path, version):
    """{(kind, name): object} of `dra convert --to version -o json`."""
    p = subprocess.run([dra, 'convert', '-f', path, '--to', version, '-o', 'json'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out = json.loads(p.stdout)
    except ValueError:
        return {}
    items = out.get('items', []) if out.get('kind') == 'List' else [out]
    return {(i.get('kind'), (i.get('metadata') or {}).get('name')
             or (i.get('metadata') or {}).get('generateName')): i for i in items}


def check_file(server, kinds, dra, path, objects, outcomes):
    """[(id, dra's object, the server's)] for the differences, and how many
    comparisons were made."""
    created = []  # (original, its id, {version: the server's object})
    for obj, outcome in zip(objects, outcomes):
        api_version = obj.get('apiVersion', '') if isinstance(obj, dict) else ''
        if outcome[1] != 'created' or not api_version.startswith(GROUP + '/'):
            continue
        kind = obj['kind']
        resource, namespaced = kinds[(api_version, kind)]
        meta = obj.get('metadata') or {}
        ns_path = ''
        if namespaced:
            ns_path = '/namespaces/' + urllib.parse.quote(meta.get('namespace') or 'default')
        status, body, _ = server.request(
            'POST', f'/apis/{api_version}{ns_path}/{resource}?fieldValidation=Strict',
            json.dumps(obj))
        if not 200 <= status < 300:
            continue  # e.g. the name is taken by an earlier object of the same file
        name = body['metadata']['name']
        versions = {}
        for version in TARGETS:
            if (f'{GROUP}/{version}', kind) not in kinds:
                continue
            s, got, _ = server.request('GET', f'/apis/{GROUP}/{version}{ns_path}/{resource}/'
                                       + urllib.parse.quote(name))
            if s == 200:
                versions[version] = got
        server.request('DELETE', f'/apis/{api_version}{ns_path}/{resource}/'
                       + urllib.parse.quote(name))
        key = meta.get('name') or meta.get('generateName')
        created.append((obj, (kind, key), versions))
    differences, n = [], 0
    if not created:
        return differences, n
    by_version = {v: dra_convert(dra, path, v) for v in TARGETS}
    work = tempfile.mkdtemp()
    for version in TARGETS:
        # The way back: the server's objects in `version`, converted to v1.
        back_path = os.path.join(work, f'{version}.json')
        with open(back_path, 'w', encoding='utf-8') as f:
            for _, _, versions in created:
                if version in versions:
                    f.write(json.dumps(versions[version]) + '\n')
        back = dra_convert(dra, back_path, 'v1')
        for original, key, versions in created:
            if version not in versions:
                continue
            oid = f'{key[0]}/{key[1]}'
            want = normalize(versions[version], original)
            n += 1
            got = by_version[version].get(key)
            got = normalize(got, original) if got is not None else None
            if got != want:
                differences.append((f'{oid} to {version}', json.dumps(got, sort_keys=True),
                                    json.dumps(want, sort_keys=True)))
            if version == 'v1' or 'v1' not in versions:
                continue
            n += 1
            server_name = versions[version]['metadata']['name']
            got = back.get((key[0], server_name))
            got = normalize(got, original) if got is not None else None
            want = normalize(versions['v1'], original)
            if got != want:
                differences.append((f'{oid} from {version} to v1',
                                    json.dumps(got, sort_keys=True),
                                    json.dumps(want, sort_keys=True)))
    return differences, n
