// The module's identity: PG_MODULE_MAGIC (with name and version on PostgreSQL 18+).
#include "compat.h"

extern "C" {
#if PG_VERSION_NUM >= 180000
PG_MODULE_MAGIC_EXT(.name = "ulid", .version = ULID_VERSION);
#else
PG_MODULE_MAGIC;
#endif
}
