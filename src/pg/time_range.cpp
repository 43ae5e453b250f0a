// ulid compared with timestamptz: the twelve operator functions (`id OP t` and `t OP id` mean
// `ulid_to_timestamp(id) OP t`), the two bound functions, and the planner support function that
// rewrites `id OP t` into ulid comparisons an index on id and partition pruning can use.
#include "datum.hpp"
#include "entry.hpp"
#include "errors.hpp"

#include "core/time_range.hpp"

#include <cstring>

extern "C" {
#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
}

using namespace ulid;
using namespace ulid::pg;

namespace {

bool ulid_op_ts(FunctionCallInfo fcinfo, TimeOp op)
{
    return time_holds(op, *arg_ulid(fcinfo, 0), PG_GETARG_TIMESTAMPTZ(1));
}

bool ts_op_ulid(FunctionCallInfo fcinfo, TimeOp op)
{
    return time_holds(commuted(op), *arg_ulid(fcinfo, 1), PG_GETARG_TIMESTAMPTZ(0));
}

// The bound functions' second argument: the operator, as the user would write it.
TimeOp parse_op(text *t)
{
    const char *s = VARDATA_ANY(t);
    const int n = VARSIZE_ANY_EXHDR(t);
    struct Name {
        const char *text;
        TimeOp op;
    };
    static const Name names[] = {{"=", TimeOp::eq}, {"<", TimeOp::lt}, {"<=", TimeOp::le},
                                 {">", TimeOp::gt}, {">=", TimeOp::ge}};
    for (const Name &name : names)
        if (static_cast<int>(std::strlen(name.text)) == n && std::memcmp(name.text, s, n) == 0)
            return name.op;
    raise_bad_time_bound_operator(s, n);
}

const char *op_text(TimeOp op)
{
    switch (op) {
    case TimeOp::eq:
        return "=";
    case TimeOp::lt:
        return "<";
    case TimeOp::le:
        return "<=";
    case TimeOp::gt:
        return ">";
    case TimeOp::ge:
        return ">=";
    case TimeOp::ne:
        break;
    }
    return "<>";
}

} // namespace

ULID_FUNCTION(ulid_timestamptz_eq) { PG_RETURN_BOOL(ulid_op_ts(fcinfo, TimeOp::eq)); }
ULID_FUNCTION(ulid_timestamptz_ne) { PG_RETURN_BOOL(ulid_op_ts(fcinfo, TimeOp::ne)); }
ULID_FUNCTION(ulid_timestamptz_lt) { PG_RETURN_BOOL(ulid_op_ts(fcinfo, TimeOp::lt)); }
ULID_FUNCTION(ulid_timestamptz_le) { PG_RETURN_BOOL(ulid_op_ts(fcinfo, TimeOp::le)); }
ULID_FUNCTION(ulid_timestamptz_gt) { PG_RETURN_BOOL(ulid_op_ts(fcinfo, TimeOp::gt)); }
ULID_FUNCTION(ulid_timestamptz_ge) { PG_RETURN_BOOL(ulid_op_ts(fcinfo, TimeOp::ge)); }
ULID_FUNCTION(timestamptz_ulid_eq) { PG_RETURN_BOOL(ts_op_ulid(fcinfo, TimeOp::eq)); }
ULID_FUNCTION(timestamptz_ulid_ne) { PG_RETURN_BOOL(ts_op_ulid(fcinfo, TimeOp::ne)); }
ULID_FUNCTION(timestamptz_ulid_lt) { PG_RETURN_BOOL(ts_op_ulid(fcinfo, TimeOp::lt)); }
ULID_FUNCTION(timestamptz_ulid_le) { PG_RETURN_BOOL(ts_op_ulid(fcinfo, TimeOp::le)); }
ULID_FUNCTION(timestamptz_ulid_gt) { PG_RETURN_BOOL(ts_op_ulid(fcinfo, TimeOp::gt)); }
ULID_FUNCTION(timestamptz_ulid_ge) { PG_RETURN_BOOL(ts_op_ulid(fcinfo, TimeOp::ge)); }

// ulid_time_lower(t, op) and ulid_time_upper(t, op): the ULIDs with `time(id) op t` are exactly
// those with lower <= id <= upper (an empty range: the largest ULID, then the smallest).
ULID_FUNCTION(ulid_time_lower)
{
    return ulid_to_datum(ulid_range(parse_op(PG_GETARG_TEXT_PP(1)), PG_GETARG_TIMESTAMPTZ(0)).lower);
}

ULID_FUNCTION(ulid_time_upper)
{
    return ulid_to_datum(ulid_range(parse_op(PG_GETARG_TEXT_PP(1)), PG_GETARG_TIMESTAMPTZ(0)).upper);
}

namespace {

// Which of the twelve functions the planner asks about: found by its C entry point, so that no
// SQL name (which search_path or a rename could change) is trusted.
struct OpFunction {
    PGFunction addr;
    TimeOp op;
    bool ts_first;
};
const OpFunction kOpFunctions[] = {
    {ulid_timestamptz_eq, TimeOp::eq, false}, {ulid_timestamptz_ne, TimeOp::ne, false},
    {ulid_timestamptz_lt, TimeOp::lt, false}, {ulid_timestamptz_le, TimeOp::le, false},
    {ulid_timestamptz_gt, TimeOp::gt, false}, {ulid_timestamptz_ge, TimeOp::ge, false},
    {timestamptz_ulid_eq, TimeOp::eq, true},  {timestamptz_ulid_ne, TimeOp::ne, true},
    {timestamptz_ulid_lt, TimeOp::lt, true},  {timestamptz_ulid_le, TimeOp::le, true},
    {timestamptz_ulid_gt, TimeOp::gt, true},  {timestamptz_ulid_ge, TimeOp::ge, true},
};

// (copyObject and list_make2 are macros built on typeof and compound literals, which C++17 lacks)
Node *copy_node(Node *n)
{
    return static_cast<Node *>(copyObjectImpl(n));
}

List *list2(void *a, void *b)
{
    return lappend(lappend(NIL, a), b);
}

Const *ulid_const(Oid type, const Ulid &value)
{
    return makeConst(type, -1, InvalidOid, sizeof(Ulid), ulid_to_datum(value), false, false);
}

// left `opno` right, with its function filled in
Expr *compare_expr(Oid opno, Node *left, Node *right, int location)
{
    auto *e = reinterpret_cast<OpExpr *>(
        make_opclause(opno, BOOLOID, false, reinterpret_cast<Expr *>(left), reinterpret_cast<Expr *>(right),
                      InvalidOid, InvalidOid));
    e->opfuncid = get_opcode(opno);
    e->location = location;
    return reinterpret_cast<Expr *>(e);
}

// A bound function in the schema of the operator's function (the extension's), by exact name and
// argument types.
Oid bound_function(Oid nsp, const char *name)
{
    const Oid argtypes[2] = {TIMESTAMPTZOID, TEXTOID};
    return GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid, CStringGetDatum(name),
                           PointerGetDatum(buildoidvector(argtypes, 2)), ObjectIdGetDatum(nsp));
}

// What simplify() reads from the catalogs for each plan: id's type's b-tree operators and the bound
// functions of the operator function's schema. Kept per backend for the last type and schema asked
// about, and forgotten on any change to pg_opclass, pg_amop or pg_proc (syscache invalidation, also
// for changes made by other sessions), so that planning a query by time costs no catalog scan
// (GetDefaultOpClass scans pg_opclass) once warm. A cached OID names what a fresh look-up would
// find: every change that could alter the answer invalidates the cache first.
//
// An invalidation only moves `generation` on; an entry holds the generation its look-up began in
// and is valid while that is still the current one. So an invalidation that arrives during a
// look-up (catalog reads accept them) leaves its result stale at once.
uint64 generation = 1; // an entry's 0: never filled

template <typename Value> struct Cached {
    uint64 stamp = 0;
    Oid key = InvalidOid;
    Value value{};

    bool get(Oid k, Value &out) const
    {
        if (stamp != generation || key != k)
            return false;
        out = value;
        return true;
    }
    void put(uint64 began, Oid k, const Value &v)
    {
        stamp = began;
        key = k;
        value = v;
    }
};

// The cache argument of a syscache callback: an enum from PostgreSQL 19 on, an int before.
#if PG_VERSION_NUM >= 190000
using SyscacheId = SysCacheIdentifier;
#else
using SyscacheId = int;
#endif

// a SyscacheCallbackFunction: PostgreSQL calls it directly while it processes invalidations
void forget_lookups(Datum, SyscacheId, uint32) noexcept
{
    ++generation;
}

// Registers forget_lookups once per backend; before the first look-up, so none misses a change.
void watch_lookups()
{
    static bool watched = false;
    if (watched)
        return;
    CacheRegisterSyscacheCallback(CLAOID, forget_lookups, 0);
    CacheRegisterSyscacheCallback(AMOPSTRATEGY, forget_lookups, 0);
    CacheRegisterSyscacheCallback(PROCOID, forget_lookups, 0);
    watched = true;
}

struct BtreeOps {
    Oid ge, le, lt;
};
Cached<BtreeOps> btree_ops_cache; // keyed by id's type

// ulid's b-tree >=, <= and < for `type` (through its default b-tree operator class); false when
// the type has none
bool btree_operators(Oid type, BtreeOps &ops)
{
    if (btree_ops_cache.get(type, ops))
        return true;
    const uint64 began = generation;
    const Oid opclass = GetDefaultOpClass(type, BTREE_AM_OID);
    if (!OidIsValid(opclass))
        return false;
    const Oid family = get_opclass_family(opclass);
    ops.ge = get_opfamily_member(family, type, type, BTGreaterEqualStrategyNumber);
    ops.le = get_opfamily_member(family, type, type, BTLessEqualStrategyNumber);
    ops.lt = get_opfamily_member(family, type, type, BTLessStrategyNumber);
    if (!OidIsValid(ops.ge) || !OidIsValid(ops.le) || !OidIsValid(ops.lt))
        return false;
    btree_ops_cache.put(began, type, ops);
    return true;
}

struct BoundFns {
    Oid lower, upper;
};
Cached<BoundFns> bound_fns_cache; // keyed by the operator function's schema

// ulid_time_lower and ulid_time_upper of schema `nsp`; false when either is missing
bool bound_functions(Oid nsp, BoundFns &fns)
{
    if (bound_fns_cache.get(nsp, fns))
        return true;
    const uint64 began = generation;
    fns.lower = bound_function(nsp, "ulid_time_lower");
    fns.upper = bound_function(nsp, "ulid_time_upper");
    if (!OidIsValid(fns.lower) || !OidIsValid(fns.upper))
        return false;
    bound_fns_cache.put(began, nsp, fns);
    return true;
}

// SupportRequestSimplify: `id OP t`, with t free of variables and of volatile functions, becomes
// `id >= lower AND id <= upper` in ulid's own b-tree operators (found through the default b-tree
// operator class of id's type), with the bounds computed now when t is a constant (one side only
// where the other admits every ULID) and through the immutable bound functions otherwise (a
// parameter, now() - interval '1 day'). <> and anything else are left as they are (NULL).
Node *simplify(SupportRequestSimplify *req)
{
    FuncExpr *f = req->fcall;
    if (list_length(f->args) != 2)
        return nullptr;
    FmgrInfo finfo;
    fmgr_info(f->funcid, &finfo);
    const OpFunction *which = nullptr;
    for (const OpFunction &o : kOpFunctions)
        if (o.addr == finfo.fn_addr)
            which = &o;
    if (which == nullptr)
        return nullptr;
    Node *id = static_cast<Node *>(which->ts_first ? lsecond(f->args) : linitial(f->args));
    Node *t = static_cast<Node *>(which->ts_first ? linitial(f->args) : lsecond(f->args));
    const TimeOp op = which->ts_first ? commuted(which->op) : which->op;
    if (op == TimeOp::ne || IsA(id, Const) || contain_var_clause(t) || contain_volatile_functions(t))
        return nullptr;

    const Oid type = exprType(id);
    watch_lookups();
    BtreeOps ops;
    if (!btree_operators(type, ops))
        return nullptr;
    const Oid ge = ops.ge, le = ops.le, lt = ops.lt;
    const int loc = f->location;

    if (IsA(t, Const)) {
        const auto *c = reinterpret_cast<Const *>(t);
        if (c->constisnull)
            return nullptr;
        const UlidRange r = ulid_range(op, DatumGetTimestampTz(c->constvalue));
        const auto bound = [&](Oid opno, Node *arg, const Ulid &value) {
            return compare_expr(opno, arg, reinterpret_cast<Node *>(ulid_const(type, value)), loc);
        };
        const Ulid smallest{};
        if (r.empty) // no ULID: false, and NULL for a NULL id
            return reinterpret_cast<Node *>(bound(lt, id, smallest));
        if (r.every_ulid) // every ULID: true, and NULL for a NULL id
            return reinterpret_cast<Node *>(bound(ge, id, smallest));
        Ulid largest;
        std::memset(largest.bytes, 0xFF, sizeof largest.bytes);
        if (compare(r.lower, smallest) == 0) // from the smallest ULID: the upper bound alone
            return reinterpret_cast<Node *>(bound(le, id, r.upper));
        if (compare(r.upper, largest) == 0) // up to the largest: the lower bound alone
            return reinterpret_cast<Node *>(bound(ge, id, r.lower));
        return reinterpret_cast<Node *>(make_andclause(list2(bound(ge, id, r.lower), bound(le, copy_node(id), r.upper))));
    }

    BoundFns fns;
    if (!bound_functions(get_func_namespace(f->funcid), fns))
        return nullptr;
    Const *op_const = makeConst(TEXTOID, -1, DEFAULT_COLLATION_OID, -1, CStringGetTextDatum(op_text(op)),
                                false, false);
    FuncExpr *lower = makeFuncExpr(fns.lower, type, list2(t, op_const), InvalidOid,
                                   DEFAULT_COLLATION_OID, COERCE_EXPLICIT_CALL);
    FuncExpr *upper = makeFuncExpr(fns.upper, type, list2(copy_node(t), copy_node(reinterpret_cast<Node *>(op_const))),
                                   InvalidOid, DEFAULT_COLLATION_OID, COERCE_EXPLICIT_CALL);
    lower->location = upper->location = loc;
    return reinterpret_cast<Node *>(make_andclause(
        list2(compare_expr(ge, id, reinterpret_cast<Node *>(lower), loc),
                   compare_expr(le, copy_node(id), reinterpret_cast<Node *>(upper), loc))));
}

} // namespace

ULID_FUNCTION(ulid_time_support)
{
    Node *req = reinterpret_cast<Node *>(PG_GETARG_POINTER(0));
    Node *result = nullptr;
    if (IsA(req, SupportRequestSimplify))
        result = simplify(reinterpret_cast<SupportRequestSimplify *>(req));
    PG_RETURN_POINTER(result);
}
