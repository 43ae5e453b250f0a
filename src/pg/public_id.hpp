// ulid_encrypt()/ulid_decrypt() and the server-held key ulid.public_id_key (src/pg/public_id.cpp).
#pragma once

namespace ulid::pg {

// Defines the setting ulid.public_id_key; called once, from _PG_init. `preloaded` says whether the
// library is being loaded by shared_preload_libraries: the one-argument functions refuse to run
// otherwise (before the library loads, the key would be a placeholder setting every role may read).
void define_public_id_key(bool preloaded);

} // namespace ulid::pg
