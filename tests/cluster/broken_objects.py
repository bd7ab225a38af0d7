"""A seeded generator of broken DRA objects for tests/cluster/real_manifests.py:
each one is a valid object (one the real server accepted) with one mutation:
a field removed, a value of the wrong JSON type, an unknown field, a name or
string the formats forbid, a number out of range, a list grown past a limit
or given a duplicate, a bad quantity, a broken CEL expression. Each mutant is
described by its kind, the mutated path with list indices and map keys
elided, and the mutation, e.g.
`ResourceSlice spec.devices[].attributes{}.int: wrong type "x"`.
"""

import copy
import json
import random

# The resource.k8s.io kinds and Pods, whose validation dra models.
MUTATED_KINDS = {'ResourceSlice', 'DeviceClass', 'ResourceClaim', 'ResourceClaimTemplate',
                 'DeviceTaintRule', 'ResourcePoolStatusRequest', 'Pod'}

WRONG_TYPES = ['x', 7, -1, 1.5, True, None, [], {}, ['x'], {'x': 1}]
BAD_STRINGS = ['', 'UPPER', '-lead', 'trail-', 'a_b', 'a/b/c', 'a..b', 'x' * 64, 'x' * 254,
               'y' * 300, 'dns.example.com/Name', 'ümlaut', ' ', 'a b', 'x/' + 'y' * 70]
BAD_NUMBERS = [-1, 0, 2 ** 31, 2 ** 63 - 1, -(2 ** 31) - 1, 1.5, 1e10]
BAD_QUANTITIES = ['-1', '1.5.5', '1e100', '1Ki', '0.0001m', 'abc', '', '1Pi', '100000000000000000000']
BAD_CEL = ['device.driver ==', 'device.attributes["a"].x + 1', '1', 'true && "x"',
           'device.nope', 'device.capacity["a"].b != quantity("1Gi")',
           'device.attributes["a"].list.all(x, x.all(y, y.all(z, true)))',
           '[1, 2]', '{"a": 1}', '1.5', 'semver("1.0.0")', 'device.attributes["a"].x.matches("[")']
LIMITS = [9, 17, 33, 65, 129, 257]


def paths(value, prefix=()):
    """Every (path, value) in a JSON tree; path is a tuple of keys and indices."""
    yield prefix, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


# Maps whose keys are data, not field names: their keys are elided as {}.
MAP_FIELDS = {'attributes', 'capacity', 'counters', 'labels', 'annotations', 'nodeSelector',
              'limits', 'requests', 'requestPolicy'}


def describe_path(path):
    out = ''
    for i, p in enumerate(path):
        if isinstance(p, int):
            out += '[]'
        elif i > 0 and path[i - 1] in MAP_FIELDS and not isinstance(path[i - 1], int):
            out += '{}'
        else:
            out += ('.' if out else '') + p
    return out


def get_parent(obj, path):
    node = obj
    for p in path[:-1]:
        node = node[p]
    return node


def short(value):
    text = json.dumps(value)
    return text if len(text) <= 24 else text[:20] + '...'


def in_scope(kind, path):
    """Whether dra validates the field: everything of the resource.k8s.io
    kinds, only the DRA fields of a Pod (its claims), whose other fields are
    core/v1 validation that dra does not model."""
    if kind != 'Pod':
        return True
    if path[:2] == ('spec', 'resourceClaims'):
        return True
    return len(path) >= 5 and path[0] == 'spec' and path[1] in ('containers', 'initContainers') \
        and path[3:5] == ('resources', 'claims')


def mutate(rng, obj):
    """One mutant of obj and its description, or None."""
    candidates = [(p, v) for p, v in paths(obj)
                  if p and p[0] not in ('apiVersion', 'kind') and in_scope(obj.get('kind'), p)]
    if not candidates:
        return None
    path, value = rng.choice(candidates)
    m = copy.deepcopy(obj)
    parent = get_parent(m, path)
    key = path[-1]
    where = describe_path(path)
    choice = rng.randrange(8)
    if choice == 0 and isinstance(parent, dict):
        del parent[key]
        what = 'removed'
    elif choice == 1:
        new = rng.choice([t for t in WRONG_TYPES if type(t) is not type(value)])
        parent[key] = new
        what = f'wrong type {short(new)}'
    elif choice == 2 and isinstance(value, dict):
        value_copy = parent[key]
        value_copy[rng.choice(['unknownField', 'Name', 'extra'])] = 1
        what = 'unknown field'
    elif choice == 3 and isinstance(value, str):
        if isinstance(key, str) and key in ('expression',):
            new = rng.choice(BAD_CEL)
        elif rng.random() < 0.3:
            new = rng.choice(BAD_QUANTITIES)
        else:
            new = rng.choice(BAD_STRINGS)
        parent[key] = new
        what = f'set to {short(new)}'
    elif choice == 4 and isinstance(value, (int, float)) and not isinstance(value, bool):
        new = rng.choice(BAD_NUMBERS)
        parent[key] = new
        what = f'set to {short(new)}'
    elif choice == 5 and isinstance(value, list) and value:
        n = rng.choice(LIMITS)
        grown = []
        for i in range(n):
            item = copy.deepcopy(value[i % len(value)])
            if isinstance(item, dict) and isinstance(item.get('name'), str):
                item['name'] = f'{item["name"]}{i}'[:63]
            grown.append(item)
        parent[key] = grown
        what = f'grown to {n} items'
    elif choice == 6 and isinstance(value, list) and value:
        value_copy = parent[key]
        value_copy.append(copy.deepcopy(value_copy[0]))
        what = 'first item duplicated'
    elif choice == 7 and isinstance(parent, dict) and isinstance(key, str):
        # A map key (attribute, capacity or label name) the formats forbid.
        grand = get_parent(m, path[:-1]) if len(path) > 1 else None
        if len(path) < 2 or path[-2] not in MAP_FIELDS or grand is None:
            return None
        new = rng.choice(BAD_STRINGS) or 'x'
        parent[new] = parent.pop(key)
        what = f'key set to {short(new)}'
    else:
        return None
    return m, f'{obj.get("kind")} {where}: {what}'


def generate(seeds, seed, count):
    """[(description, object)]: `count` mutants of the seeds, named gen-<n>
    unless the mutation is of the name itself, in a reproducible order."""
    rng = random.Random(seed)
    seeds = [s for s in seeds if isinstance(s, dict) and s.get('kind') in MUTATED_KINDS]
    out = []
    attempts = 0
    while len(out) < count and seeds and attempts < count * 20:
        attempts += 1
        base = copy.deepcopy(rng.choice(seeds))
        meta = base.setdefault('metadata', {})
        meta.pop('generateName', None)
        meta['name'] = f'gen-{len(out)}'
        result = mutate(rng, base)
        if result is not None:
            out.append((result[1], result[0]))
    return out
