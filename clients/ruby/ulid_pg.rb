# ruby-pg: ulid is a String in text results (the default); UlidPG.register gives ulid[] as Arrays
# and ulid in binary results as a String (not 16 raw bytes).
require "pg"

module UlidPG
  ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

  class BinaryDecoder < PG::SimpleDecoder
    def decode(bytes, _tuple = nil, _field = nil)
      n = bytes.unpack1("H*").to_i(16)
      (0...26).map { |i| ALPHABET[(n >> (125 - 5 * i)) & 31] }.join
    end
  end

  def self.register(conn)
    registry = PG::BasicTypeRegistry.new.register_default_types
    registry.register_type(0, "ulid", PG::TextEncoder::String, PG::TextDecoder::String)
    registry.register_coder(BinaryDecoder.new(name: "ulid", format: 1))
    conn.type_map_for_results = PG::BasicTypeMapForResults.new(conn, registry: registry)
    conn.type_map_for_queries = PG::BasicTypeMapForQueries.new(conn, registry: registry)
  end
end

if $PROGRAM_NAME == __FILE__
  conn = PG.connect # PG* environment variables
  UlidPG.register(conn)
  conn.exec("CREATE TEMP TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), tags ulid[])")
  row = conn.exec_params("INSERT INTO events (tags) VALUES ($1::ulid[]) RETURNING id, tags",
                         [["01ARZ3NDEKTSV4RRFFQ69G5FAV"]]).first
  binary = conn.exec_params("SELECT id FROM events WHERE id = $1", [row["id"]], 1).getvalue(0, 0)
  puts [row["id"].size, row["tags"], binary == row["id"]].inspect # [26, ["01ARZ3NDEKTSV4RRFFQ69G5FAV"], true]
end
