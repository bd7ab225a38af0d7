#!/usr/bin/env python3
"""Compares `dra validate` with a real kube-apiserver on every manifest of a
corpus (tests/cluster/real_manifests.sh runs it; docs/VALIDATE.md).

Each object of each file is sent to the server as kube-apiserver receives a
create: POST to its resource with dryRun=All and fieldValidation=Strict (what
`kubectl create --dry-run=server --validate=strict` sends). The server's
answer is the expected outcome: created, or rejected with the message of its
Status, and the Warning headers it sent. Kinds the server's discovery does
not list get kubectl's `no matches for kind` message; an object without
apiVersion or kind gets what kubectl itself says of it. `dra validate -o json`
must predict every object: an object dra finds valid, or does not check
because it does not model its kind, must have been created; an object dra
finds invalid must have the server's message word for word; a checked object
must carry the server's warnings. Differences listed in the divergence file
(file, object, reason) are counted as known; any other is unexplained and
fails the run.

  real_manifests.py --dra DRA --kubectl KUBECTL --corpus DIR --divergences F
Needs KUBECONFIG (the cluster's admin kubeconfig, with certificate data).
Ends with `compared N, identical N, known divergences N, unexplained N`.
"""

import argparse
import base64
import fnmatch
import http.client
import json
import os
import re
import ssl
import subprocess
import sys
import tempfile
import urllib.parse

import yaml

import broken_objects
import convert_oracle


class Loader(yaml.SafeLoader):
    """YAML 1.1 as sigs.k8s.io/yaml reads it, but timestamps stay strings."""


Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != 'tag:yaml.org,2002:timestamp']
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class Server:
    """The API server of a kubeconfig's current context, over client certificates."""

    def __init__(self, kubeconfig):
        cfg = yaml.safe_load(open(kubeconfig, encoding='utf-8'))
        ctx = next(c['context'] for c in cfg['contexts'] if c['name'] == cfg['current-context'])
        cluster = next(c['cluster'] for c in cfg['clusters'] if c['name'] == ctx['cluster'])
        user = next(u['user'] for u in cfg['users'] if u['name'] == ctx['user'])
        self._dir = tempfile.mkdtemp()
        paths = {}
        for key in ('certificate-authority-data', 'client-certificate-data', 'client-key-data'):
            paths[key] = os.path.join(self._dir, key)
            source = cluster if key.startswith('certificate') else user
            with open(paths[key], 'wb') as f:
                f.write(base64.b64decode(source[key]))
        self._ctx = ssl.create_default_context(cafile=paths['certificate-authority-data'])
        self._ctx.load_cert_chain(paths['client-certificate-data'], paths['client-key-data'])
        url = urllib.parse.urlparse(cluster['server'])
        self._host, self._port = url.hostname, url.port

    def request(self, method, path, body=None):
        """(status, parsed JSON body, [warnings])."""
        conn = http.client.HTTPSConnection(self._host, self._port, context=self._ctx, timeout=30)
        headers = {'Accept': 'application/json'}
        if body is not None:
            headers['Content-Type'] = 'application/json'
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        warnings = [parse_warning(v) for k, v in resp.getheaders() if k.lower() == 'warning']
        conn.close()
        return resp.status, json.loads(data) if data else {}, warnings


def parse_warning(value):
    """The text of an RFC 7234 Warning header as kube-apiserver writes it: 299 - "text"."""
    m = re.fullmatch(r'\d{3} \S+ "((?:[^"\\]|\\.)*)"', value.strip())
    return re.sub(r'\\(.)', r'\1', m.group(1)) if m else value


def discovery(server):
    """{(apiVersion, kind): (resource, namespaced)} of the server's discovery."""
    kinds = {}

    def add(gv, path):
        _, body, _ = server.request('GET', path)
        for r in body.get('resources', []):
            if '/' not in r['name']:
                kinds[(gv, r['kind'])] = (r['name'], r.get('namespaced', False))

    add('v1', '/api/v1')
    _, groups, _ = server.request('GET', '/apis')
    for g in groups.get('groups', []):
        for v in g['versions']:
            add(v['groupVersion'], '/apis/' + v['groupVersion'])
    return kinds


def run(argv, stdin=None):
    p = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def object_id(kind, name):
    return f'{kind}/{name}'


def objects_of(path):
    """The objects of a file as kubectl sends them: documents, List items."""
    out = []
    for doc in yaml.load_all(open(path, encoding='utf-8'), Loader=Loader):
        if doc is None:
            continue
        if isinstance(doc, dict) and isinstance(doc.get('items'), list) and \
                str(doc.get('kind', '')).endswith('List'):
            for item in doc['items']:
                if isinstance(item, dict):
                    item.setdefault('apiVersion', doc.get('apiVersion'))
                    item.setdefault('kind', doc['kind'][:-len('List')] or None)
                out.append(item)
            continue
        out.append(doc)
    return out


def kubectl_client_error(kubectl, obj):
    """What kubectl says of an object it will not send (no apiVersion or kind)."""
    _, _, err = run([kubectl, 'create', '--dry-run=server', '--validate=strict', '-f', '-'],
                    json.dumps(obj).encode())
    msg = re.sub(r'^error: ', '', err.strip())
    msg = re.sub(r'^error validating "[^"]*": ', '', msg)
    return re.sub(r'; if you choose to ignore these errors, turn validation off with '
                  r'--validate=false$', '', msg)


def server_outcome(server, kinds, kubectl, obj):
    """(id, 'created' | 'error', message, warnings) of creating one object."""
    meta = obj.get('metadata') if isinstance(obj, dict) and isinstance(obj.get('metadata'), dict) \
        else {}
    kind = obj.get('kind') if isinstance(obj, dict) else None
    name = meta.get('name') if isinstance(meta.get('name'), str) else ''
    if not name and isinstance(meta.get('generateName'), str):
        name = meta['generateName']
    oid = object_id(kind if isinstance(kind, str) else '', name)
    api_version = obj.get('apiVersion') if isinstance(obj, dict) else None
    if not isinstance(kind, str) or not kind or not isinstance(api_version, str) or not api_version:
        return oid, 'error', kubectl_client_error(kubectl, obj), []
    if (api_version, kind) not in kinds:
        return oid, 'error', f'no matches for kind "{kind}" in version "{api_version}"', []
    resource, namespaced = kinds[(api_version, kind)]
    prefix = '/api/v1' if api_version == 'v1' else '/apis/' + api_version
    if namespaced:
        ns = meta.get('namespace') if isinstance(meta.get('namespace'), str) else ''
        prefix += '/namespaces/' + urllib.parse.quote(ns or 'default', safe='')
    status, body, warnings = server.request(
        'POST', f'{prefix}/{resource}?dryRun=All&fieldValidation=Strict', json.dumps(obj))
    if 200 <= status < 300:
        return oid, 'created', '', warnings
    # The harness created the corpus's namespaces beforehand.
    if kind == 'Namespace' and body.get('reason') == 'AlreadyExists':
        return oid, 'created', '', warnings
    return oid, 'error', body.get('message', f'HTTP {status}'), warnings


def dra_outcome(dra, path, namespace, gates=''):
    """[(id, 'created' | 'error', message, warnings, checked)] of dra validate."""
    argv = [dra, 'validate', '-o', 'json', '-n', namespace, '-f', path]
    if gates:
        argv += ['--feature-gates', gates]
    _, out, err = run(argv)
    try:
        report = json.loads(out)
    except ValueError:
        return [('?', 'error', 'dra validate printed no JSON: ' + err.strip(), [], True)]
    result = []
    for o in report.get('objects', []):
        oid = object_id(o.get('kind', ''), o.get('name', ''))
        if o.get('readable') is False:
            result.append((oid, 'error', o.get('message', ''), [], True))
        elif o.get('checked') is False:
            result.append((oid, 'created', '', [], False))
        elif o.get('valid'):
            result.append((oid, 'created', '', o.get('warnings', []), True))
        else:
            result.append((oid, 'error', o.get('message', ''), o.get('warnings', []), True))
    return result


def describe(verdict, message, warnings):
    text = 'accepted' if verdict == 'created' else message
    return text + ''.join(f'\n             Warning: {w}' for w in warnings)


def compare(predicted, actual):
    """([(id, what dra said, what the server did)] for each object that differs,
    the number of objects compared). Objects are paired by id, in order."""
    actual = list(actual)
    differences, compared = [], 0
    for oid, verdict, message, warnings, checked in predicted:
        compared += 1
        match = next((a for a in actual if a[0] == oid), None)
        if match is None:
            differences.append((oid, describe(verdict, message, warnings), 'nothing'))
            continue
        actual.remove(match)
        _, s_verdict, s_message, s_warnings = match
        same = verdict == s_verdict and message == s_message
        if checked and warnings != s_warnings:
            same = False
        if not same:
            differences.append((oid, describe(verdict, message, warnings if checked else []),
                                describe(s_verdict, s_message, s_warnings)))
    for oid, s_verdict, s_message, s_warnings in actual:
        compared += 1
        differences.append((oid, 'nothing', describe(s_verdict, s_message, s_warnings)))
    return differences, compared


def load_divergences(path):
    known = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) != 3:
                sys.exit(f'{path}: want FILE<TAB>OBJECT<TAB>REASON: {line!r}')
            known[(parts[0], parts[1])] = parts[2]
    return known


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dra', required=True)
    ap.add_argument('--kubectl', required=True)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--divergences', required=True)
    ap.add_argument('--namespace', default='default')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--generated', type=int, default=5000,
                    help='broken objects generated from the accepted ones')
    ap.add_argument('--feature-gates', default='',
                    help="dra's --feature-gates, the server's DRA gates")
    ap.add_argument('--label', default='default gates',
                    help='names this configuration of gates in the output')
    ap.add_argument('--extra', action='append', default=[],
                    help='a file compared and used as seeds besides the corpus (repeatable)')
    ap.add_argument('--convert', action='store_true',
                    help='also compare dra convert with the server conversion of every '
                    'accepted resource.k8s.io object (convert_oracle.py)')
    ap.add_argument('--state', help='a JSON file that sums totals and used divergence '
                    'entries over several runs (one per configuration of gates)')
    ap.add_argument('--last', action='store_true',
                    help='the last run: check for unused entries and print the summary '
                    'of all runs')
    args = ap.parse_args()
    server = Server(os.environ['KUBECONFIG'])
    kinds = discovery(server)
    known = load_divergences(args.divergences)
    used = set()
    files = sorted(os.path.relpath(os.path.join(d, f), args.corpus)
                   for d, _, fs in os.walk(args.corpus) for f in fs
                   if f.endswith(('.yaml', '.yml', '.json')))
    totals = {'compared': 0, 'identical': 0, 'known': 0, 'unexplained': 0}
    if args.state and os.path.exists(args.state):
        with open(args.state, encoding='utf-8') as f:
            state = json.load(f)
        totals = state['totals']
        used = {tuple(k) for k in state['used']}
    print(f'--- {args.label}: --feature-gates={args.feature_gates or "(defaults)"}')

    def account(rel, differences, n, key_of):
        totals['compared'] += n
        totals['identical'] += n - len(differences)
        for oid, said, did in differences:
            key = key_of(oid)
            reason = known.get(key)
            if reason is not None:
                used.add(key)
                totals['known'] += 1
                print(f'known: {rel}: {oid}: {reason}')
                continue
            totals['unexplained'] += 1
            print(f'DIFFERS ({args.label}): {rel}: {oid}\n  dra:       {said}\n'
                  f'  apiserver: {did}')

    def generated_key(labelled):
        """The divergence entry whose pattern (fnmatch) matches a mutant's
        description: `generated<TAB>PATTERN<TAB>REASON`."""
        description = labelled[labelled.find('(') + 1:-1]
        for file, pattern in known:
            if file == 'generated' and fnmatch.fnmatchcase(description, pattern):
                return (file, pattern)
        return ('generated', description)

    seeds = []
    converted = 0
    inputs = [(rel, os.path.join(args.corpus, rel)) for rel in files]
    inputs += [('extra/' + os.path.basename(p), p) for p in args.extra]
    for rel, path in inputs:
        objects = objects_of(path)
        actual = [server_outcome(server, kinds, args.kubectl, o) for o in objects]
        seeds += [o for o, a in zip(objects, actual) if a[1] == 'created']
        differences, n = compare(dra_outcome(args.dra, path, args.namespace, args.feature_gates),
                                 actual)
        account(rel, differences, n, lambda oid, rel=rel: (rel, oid))
        if args.convert:
            differences, n = convert_oracle.check_file(server, kinds, args.dra, path, objects,
                                                       actual)
            account('convert/' + rel, differences, n,
                    lambda oid, rel=rel: ('convert/' + rel, oid))
            converted += n

    # Mutants of the accepted objects, in files of 100 (JSON values one after
    # another); a difference is keyed by the mutation's description.
    mutants = broken_objects.generate(seeds, args.seed, args.generated)
    # The corpus's Namespaces lead each file, so that dra knows their labels
    # (admin access) as the server does; they are not compared again.
    namespaces = {o['metadata']['name']: o for o in seeds if o.get('kind') == 'Namespace'}
    work = tempfile.mkdtemp()
    for start in range(0, len(mutants), 100):
        batch = mutants[start:start + 100]
        path = os.path.join(work, f'generated-{start // 100:03d}.json')
        with open(path, 'w', encoding='utf-8') as f:
            for obj in namespaces.values():
                f.write(json.dumps(obj) + '\n')
            for _, obj in batch:
                f.write(json.dumps(obj) + '\n')
        actual = [server_outcome(server, kinds, args.kubectl, o) for _, o in batch]
        describe_id = {a[0]: d for (d, _), a in zip(batch, actual)}
        predicted = dra_outcome(args.dra, path, args.namespace,
                                args.feature_gates)[len(namespaces):]
        differences, n = compare(predicted, actual)
        rel = 'generated/' + os.path.basename(path)
        account(rel, [(f'{oid} ({describe_id.get(oid, "?")})', said, did)
                      for oid, said, did in differences], n, generated_key)
    print(f'{args.label}: files {len(inputs)}, generated objects {len(mutants)} '
          f'(seed {args.seed})' + (f', conversions {converted}' if args.convert else ''))
    if args.state:
        with open(args.state, 'w', encoding='utf-8') as f:
            json.dump({'totals': totals, 'used': sorted(used)}, f)
        if not args.last:
            return 0
    compared, identical = totals['compared'], totals['identical']
    known_count, unexplained = totals['known'], totals['unexplained']
    for key in sorted(set(known) - used):
        print(f'UNUSED divergence entry (fixed? remove it): {key[0]}\t{key[1]}')
        unexplained += 1
    print(f'compared {compared}, identical {identical}, known divergences {known_count}, '
          f'unexplained {unexplained}')
    return 1 if unexplained else 0


if __name__ == '__main__':
    sys.exit(main())
