#!/usr/bin/env python3
"""Check a META.json against the PGXN Meta Spec v1.0.0 (https://pgxn.org/spec/), stdlib only.

    pgxn_meta.py META.json            print one line per problem; exit 1 if there is any
    pgxn_meta.py --self-test META.json  break a valid META.json in known ways; print one line per
                                      broken copy that is NOT rejected; exit 1 if there is any

The rules are those of the spec's "Structure" section: the required keys and their types, terms,
semantic versions, version ranges in prereqs, the license strings, release_status values, resources,
no_index, tags, and custom keys only with an x_ / X_ prefix. It does not fetch anything.
"""
import copy
import json
import re
import sys

REQUIRED = ("abstract", "license", "maintainer", "meta-spec", "name", "provides", "version")
OPTIONAL = ("description", "generated_by", "no_index", "prereqs", "release_status", "resources", "tags")
LICENSES = {
    "agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd", "gfdl_1_2",
    "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit", "mozilla_1_0", "mozilla_1_1",
    "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay", "sun", "zlib", "open_source", "restricted",
    "unrestricted", "unknown",
}
PHASES = {"configure", "build", "test", "runtime", "develop"}
RELATIONS = {"requires", "recommends", "suggests", "conflicts"}
STATUSES = {"stable", "testing", "unstable"}
# Semantic Versioning 1.0.0 as PGXN uses it: MAJOR.MINOR.PATCH with an optional pre-release tag
# appended directly ("1.0.0beta1") or, as PGXN also accepts, after a hyphen.
SEMVER = re.compile(r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-?[A-Za-z][0-9A-Za-z-]*)?$")
URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^\s]+$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")


def is_custom(key):
    return isinstance(key, str) and (key.startswith("x_") or key.startswith("X_"))


def is_term(value):
    """A term: a string of at least two characters, without whitespace, control characters, / or \\."""
    return (isinstance(value, str) and len(value) >= 2
            and not re.search(r"[\s/\\\x00-\x1f\x7f]", value))


def is_version_range(value):
    """"0", a version, or comma-separated comparisons (==, !=, >, >=, <, <=) with versions."""
    if value == 0 or value == "0":
        return True
    if not isinstance(value, str):
        return False
    for part in value.split(","):
        m = re.match(r"^\s*(==|!=|>=|<=|>|<)?\s*(\S+)\s*$", part)
        if not m or not SEMVER.match(m.group(2)):
            return False
    return True


def check_string(errors, where, value):
    if not isinstance(value, str) or not value.strip():
        errors.append(f"{where}: must be a non-empty string")


def check_unknown(errors, where, obj, known):
    for key in obj:
        if key not in known and not is_custom(key):
            errors.append(f"{where}: unknown key {key!r} (custom keys need an x_ prefix)")


def validate(meta):
    errors = []
    if not isinstance(meta, dict):
        return ["top level: must be an object"]
    for key in REQUIRED:
        if key not in meta:
            errors.append(f"{key}: required key missing")
    check_unknown(errors, "top level", meta, set(REQUIRED) | set(OPTIONAL))

    if "name" in meta and not is_term(meta["name"]):
        errors.append("name: must be a term (2+ characters, no whitespace, no / or \\)")
    if "version" in meta and not (isinstance(meta["version"], str) and SEMVER.match(meta["version"])):
        errors.append(f"version: {meta['version']!r} is not a semantic version")
    for key in ("abstract", "description", "generated_by"):
        if key in meta:
            check_string(errors, key, meta[key])

    if "maintainer" in meta:
        m = meta["maintainer"]
        if isinstance(m, list):
            if not m:
                errors.append("maintainer: the list is empty")
            for i, v in enumerate(m):
                check_string(errors, f"maintainer[{i}]", v)
        else:
            check_string(errors, "maintainer", m)

    if "license" in meta:
        lic = meta["license"]
        if isinstance(lic, str):
            if lic not in LICENSES:
                errors.append(f"license: {lic!r} is not one of the spec's license strings")
        elif isinstance(lic, list):
            if not lic:
                errors.append("license: the list is empty")
            for v in lic:
                if v not in LICENSES:
                    errors.append(f"license: {v!r} is not one of the spec's license strings")
        elif isinstance(lic, dict):
            if not lic:
                errors.append("license: the object is empty")
            for name, url in lic.items():
                if not isinstance(url, str) or not URL.match(url):
                    errors.append(f"license.{name}: must be a URL")
        else:
            errors.append("license: must be a string, a list or an object")

    if "meta-spec" in meta:
        ms = meta["meta-spec"]
        if not isinstance(ms, dict):
            errors.append("meta-spec: must be an object")
        else:
            if ms.get("version") != "1.0.0":
                errors.append(f"meta-spec.version: must be \"1.0.0\", not {ms.get('version')!r}")
            if "url" in ms and not (isinstance(ms["url"], str) and URL.match(ms["url"])):
                errors.append("meta-spec.url: must be a URL")
            check_unknown(errors, "meta-spec", ms, {"version", "url"})

    if "provides" in meta:
        pv = meta["provides"]
        if not isinstance(pv, dict) or not pv:
            errors.append("provides: must be a non-empty object")
        else:
            for ext, spec in pv.items():
                where = f"provides.{ext}"
                if not is_term(ext):
                    errors.append(f"{where}: the extension name must be a term")
                if not isinstance(spec, dict):
                    errors.append(f"{where}: must be an object")
                    continue
                for key in ("file", "version"):
                    if key not in spec:
                        errors.append(f"{where}.{key}: required key missing")
                if "file" in spec:
                    check_string(errors, f"{where}.file", spec["file"])
                if "version" in spec and not (isinstance(spec["version"], str) and SEMVER.match(spec["version"])):
                    errors.append(f"{where}.version: {spec['version']!r} is not a semantic version")
                for key in ("abstract", "docfile"):
                    if key in spec:
                        check_string(errors, f"{where}.{key}", spec[key])
                check_unknown(errors, where, spec, {"file", "version", "abstract", "docfile"})

    if "prereqs" in meta:
        pr = meta["prereqs"]
        if not isinstance(pr, dict):
            errors.append("prereqs: must be an object")
        else:
            for phase, rels in pr.items():
                if phase not in PHASES and not is_custom(phase):
                    errors.append(f"prereqs: unknown phase {phase!r}")
                    continue
                if not isinstance(rels, dict):
                    errors.append(f"prereqs.{phase}: must be an object")
                    continue
                for rel, deps in rels.items():
                    if rel not in RELATIONS and not is_custom(rel):
                        errors.append(f"prereqs.{phase}: unknown relationship {rel!r}")
                        continue
                    if not isinstance(deps, dict):
                        errors.append(f"prereqs.{phase}.{rel}: must be an object")
                        continue
                    for name, rng in deps.items():
                        if not is_term(name):
                            errors.append(f"prereqs.{phase}.{rel}: {name!r} is not a term")
                        if not is_version_range(rng):
                            errors.append(f"prereqs.{phase}.{rel}.{name}: {rng!r} is not a version range")

    if "release_status" in meta and meta["release_status"] not in STATUSES:
        errors.append(f"release_status: {meta['release_status']!r} is not one of {sorted(STATUSES)}")

    if "resources" in meta:
        rs = meta["resources"]
        if not isinstance(rs, dict):
            errors.append("resources: must be an object")
        else:
            check_unknown(errors, "resources", rs, {"homepage", "bugtracker", "repository"})
            if "homepage" in rs and not (isinstance(rs["homepage"], str) and URL.match(rs["homepage"])):
                errors.append("resources.homepage: must be a URL")
            for key, fields in (("bugtracker", {"web": URL, "mailto": EMAIL}),
                                ("repository", {"url": URL, "web": URL, "type": None})):
                if key not in rs:
                    continue
                if not isinstance(rs[key], dict):
                    errors.append(f"resources.{key}: must be an object")
                    continue
                check_unknown(errors, f"resources.{key}", rs[key], set(fields))
                for f, pattern in fields.items():
                    v = rs[key].get(f)
                    if v is None:
                        continue
                    if not isinstance(v, str) or (pattern and not pattern.match(v)):
                        errors.append(f"resources.{key}.{f}: {v!r} is not valid")

    if "tags" in meta:
        tags = meta["tags"]
        if not isinstance(tags, list):
            errors.append("tags: must be a list")
        else:
            for t in tags:
                if not isinstance(t, str) or not 0 < len(t) < 256:
                    errors.append(f"tags: {t!r} must be a string of 1 to 255 characters")

    if "no_index" in meta:
        ni = meta["no_index"]
        if not isinstance(ni, dict):
            errors.append("no_index: must be an object")
        else:
            check_unknown(errors, "no_index", ni, {"file", "directory"})
            for key, v in ni.items():
                if is_custom(key):
                    continue
                if isinstance(v, str):
                    v = [v]
                if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
                    errors.append(f"no_index.{key}: must be a string or a list of strings")
    return errors


def mutations(meta):
    """(description, broken copy) pairs, each of which the validator must reject."""
    def broken(description, change):
        m = copy.deepcopy(meta)
        change(m)
        return description, m

    out = [broken(f"without {key}", lambda m, k=key: m.pop(k)) for key in REQUIRED]
    ext = next(iter(meta["provides"]))
    out += [
        broken("version 1.0", lambda m: m.update(version="1.0")),
        broken("version v1.0.0", lambda m: m.update(version="v1.0.0")),
        broken("name with a space", lambda m: m.update(name="ul id")),
        broken("license gpl", lambda m: m.update(license="gpl")),
        broken("maintainer []", lambda m: m.update(maintainer=[])),
        broken("abstract 42", lambda m: m.update(abstract=42)),
        broken("unknown top-level key", lambda m: m.update(homepage="x")),
        broken("meta-spec version 2.0.0", lambda m: m["meta-spec"].update(version="2.0.0")),
        broken("provides {}", lambda m: m.update(provides={})),
        broken("provides without file", lambda m: m["provides"][ext].pop("file")),
        broken("provides without version", lambda m: m["provides"][ext].pop("version")),
        broken("provides version 1", lambda m: m["provides"][ext].update(version="1")),
        broken("prereqs phase install", lambda m: m.update(prereqs={"install": {"requires": {"PostgreSQL": "13.0.0"}}})),
        broken("prereqs relationship needs", lambda m: m.update(prereqs={"runtime": {"needs": {"PostgreSQL": "13.0.0"}}})),
        broken("prereqs range >= 13", lambda m: m.update(prereqs={"runtime": {"requires": {"PostgreSQL": ">= 13"}}})),
        broken("release_status beta", lambda m: m.update(release_status="beta")),
        broken("resources.homepage not a URL", lambda m: m.update(resources={"homepage": "example"})),
        broken("tags a string", lambda m: m.update(tags="ulid")),
        broken("no_index.directory a number", lambda m: m.update(no_index={"directory": 1})),
    ]
    return out


def main(argv):
    self_test = argv[1:2] == ["--self-test"]
    path = argv[2] if self_test else argv[1]
    with open(path, encoding="utf-8") as f:
        meta = json.load(f)
    if not self_test:
        errors = validate(meta)
        for e in errors:
            print(e)
        return 1 if errors else 0
    if validate(meta):
        print("the unbroken META.json is not valid to begin with")
        return 1
    accepted = [d for d, m in mutations(meta) if not validate(m)]
    for d in accepted:
        print(f"not rejected: {d}")
    print(f"{len(mutations(meta)) - len(accepted)} of {len(mutations(meta))} broken copies rejected")
    return 1 if accepted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
