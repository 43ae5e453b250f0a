# ActiveRecord 6.1 against the server: the migration, gen_ulid() default, ulid/ulid[]/NULL, belongs_to,
# insert_all, find by string id, a time range, errors, and the schema.rb round trip.
require "open3"
require "stringio"
require_relative "check_common"
require_relative "activerecord_ulid"

include CheckCommon
c = Checks.new("activerecord")
COPY_DB = "client_activerecord_copy" # the empty database schema.rb is loaded into
ActiveRecord::Migration.verbose = false

# what SchemaDumper.dump reads: a connection pool from 7.2 on, a connection before
# (one expression, evaluated here and in the subprocess below)
DUMP_SOURCE_RUBY = 'ActiveRecord.version >= Gem::Version.new("7.2") ? ActiveRecord::Base.connection_pool : ActiveRecord::Base.connection'

def dump_schema
  io = StringIO.new
  ActiveRecord::SchemaDumper.dump(eval(DUMP_SOURCE_RUBY), io)
  io.string
end

recipe, status = Open3.capture2e(RbConfig.ruby, "activerecord_ulid.rb")
c.equal("the recipe migrates, creates and finds the event in the last hour", [status.success?, recipe.lines.last],
        [true, "[26, true]\n"])

ActiveRecord::Base.establish_connection(adapter: "postgresql") # PG* environment, search_path client_activerecord
conn = ActiveRecord::Base.connection
c.run("checks") do
  cols = Event.columns.to_h { |col| [col.name, [col.type, col.sql_type, col.array?, col.default_function]] }
  c.equal("the migration's columns: types, ulid[], DEFAULT gen_ulid()", cols,
          { "id" => [:ulid, "ulid", false, "gen_ulid()"], "parent_id" => [:ulid, "ulid", false, nil],
            "tags" => [:ulid, "ulid", true, nil], "what" => [:text, "text", false, nil] })

  e = Event.create!(what: "default")
  c.ulid?("create: id from DEFAULT gen_ulid() is a String", e.id)
  c.equal("create: NULL parent_id and tags read as nil", [e.parent_id, e.tags, e.reload.parent_id, e.tags], [nil] * 4)
  given = Event.create!(id: KNOWN_LOWER_ALIAS, parent: e, tags: [KNOWN, nil, MAX], what: "given")
  c.equal("create with a given id (lower case, l for 1): the model keeps the string given until reload",
          [given.id, given.reload.id], [KNOWN_LOWER_ALIAS, KNOWN])
  c.equal("find by string id (either spelling)", [Event.find(KNOWN).what, Event.find(KNOWN_LOWER_ALIAS).id], ["given", KNOWN])
  c.equal("ulid[] read back as an Array, NULL element as nil", Event.find(KNOWN).tags, [KNOWN, nil, MAX])
  c.equal("where(tags: [...]) and where(id: [...])",
          [Event.where(tags: [KNOWN, nil, MAX]).pluck(:id), Event.where(id: [KNOWN, e.id]).count], [[KNOWN], 2])
  c.equal("belongs_to through the ulid foreign key", Event.find(KNOWN).parent.id, e.id)
  c.equal("has_many through the ulid foreign key, joins, includes",
          [e.children.pluck(:id), Event.joins(:parent).where(parent: { id: e.id }).pluck(:id),
           Event.includes(:parent).find(KNOWN).parent.what], [[KNOWN], [KNOWN], "default"])
  c.equal("the foreign key holds: a parent_id that is no event is refused (ActiveRecord::InvalidForeignKey)",
          begin
            Event.create!(parent_id: MAX, what: "orphan")
            "no error"
          rescue ActiveRecord::InvalidForeignKey => err
            err.cause.result.error_field(PG::PG_DIAG_SQLSTATE)
          end, "23503")

  ids = CheckCommon.bulk_ids
  Event.insert_all(ids.map { |id| { id: id, what: "bulk" } })
  c.equal("insert_all of #{BULK_ROWS} rows with given ids: the same ids in id order",
          Event.where(what: "bulk").order(:id).pluck(:id), ids.sort)
  made = Event.insert_all(Array.new(100) { { what: "bulk default" } }, returning: %w[id])
  c.equal("insert_all without ids: DEFAULT gen_ulid() for each, RETURNING id as Strings",
          [made.rows.size, made.rows.flatten.uniq.size, made.rows.flatten.all? { |id| id.size == 26 }], [100, 100, true])

  conn.execute("INSERT INTO events (id, what) SELECT id, 'range' FROM (#{RANGE_ROWS_SQL}) r")
  range = Event.where(what: "range").where("id BETWEEN ulid_min(?) AND ulid_max(?)", RANGE_LO, RANGE_HI)
               .order(:id).pluck(Arel.sql("ulid_to_timestamp(id)"))
  c.equal("time range with ulid_min(?)/ulid_max(?) and Time parameters", range.size, RANGE_COUNT)
  c.equal("time range: first and last row on the bounds", [range.first, range.last], [RANGE_LO, RANGE_HI])

  c.bad_string("bad string: create!", ActiveRecord::StatementInvalid) { Event.create!(id: BAD, what: "bad") }
  c.bad_string("bad string: find", ActiveRecord::StatementInvalid) { Event.find(BAD) }
  c.bad_string("bad string: where(parent_id:)", ActiveRecord::StatementInvalid) { Event.where(parent_id: BAD).to_a }

  # schema.rb: dumped here, loaded into an empty database, dumped there again
  schema = dump_schema
  c.equal("schema.rb: create_table id: :ulid with default gen_ulid(), t.ulid, ulid[], the foreign key",
          schema.lines.grep(/create_table|t\.ulid|add_foreign_key|enable_extension "ulid"/).map(&:strip),
          ['enable_extension "ulid"', 'create_table "events", id: :ulid, default: -> { "gen_ulid()" }, force: :cascade do |t|',
           't.ulid "parent_id"', 't.ulid "tags", array: true', 'add_foreign_key "events", "events", column: "parent_id"'])
  conn.execute("DROP DATABASE IF EXISTS #{COPY_DB}")
  conn.execute("CREATE DATABASE #{COPY_DB}")
  ActiveRecord::Base.establish_connection(adapter: "postgresql", database: COPY_DB)
  ActiveRecord::Schema.instance_eval(schema) # what bin/rails db:schema:load does with db/schema.rb
  c.equal("schema.rb loaded into an empty database dumps the same schema.rb", dump_schema, schema)
  c.equal("the loaded table: the same columns, DEFAULT gen_ulid()",
          ActiveRecord::Base.connection.select_rows("SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
            pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef d ON (d.adrelid, d.adnum) = (a.attrelid, a.attnum)
            WHERE a.attrelid = 'events'::regclass AND a.attnum > 0 ORDER BY a.attnum"),
          [["id", "ulid", true, "gen_ulid()"], ["parent_id", "ulid", false, nil], ["tags", "ulid[]", false, nil],
           ["what", "text", true, nil]])
  c.ulid?("the loaded table: Event.create! there gets a gen_ulid() id", Event.create!(what: "copy").id)
  ActiveRecord::Base.establish_connection(adapter: "postgresql")
  ActiveRecord::Base.connection.execute("DROP DATABASE #{COPY_DB}")

  # without the recipe: reads still work (String), but the schema dumper gives up on the table
  out, status = Open3.capture2e(RbConfig.ruby, "-e", <<~RUBY)
    require "active_record"
    ActiveRecord::Base.establish_connection(adapter: "postgresql")
    ActiveRecord::SchemaDumper.dump(#{DUMP_SOURCE_RUBY}, $stdout)
    puts ActiveRecord::Base.connection.select_value("SELECT id FROM events WHERE id = '#{KNOWN}'")
  RUBY
  c.equal("without the recipe: schema.rb says Could not dump table, Unknown type 'ulid'; reads are Strings",
          [status.success?, out.include?("# Could not dump table \"events\""), out.include?("Unknown type 'ulid' for column 'id'"),
           out.lines.last], [true, true, true, "#{KNOWN}\n"])
end
c.exit!
