# ActiveRecord 6.1 (Rails): ulid as a column type. The PostgreSQL adapter learns the name "ulid"
# (a String in Ruby; ulid[] follows as an Array), migrations get t.ulid and id: :ulid, and the
# schema dumper writes them back. Require it before connecting.
require "active_record"
require "active_record/connection_adapters/postgresql_adapter"

module UlidRecord
  class Type < ActiveRecord::Type::String
    def type = :ulid # what the schema dumper writes: t.ulid, id: :ulid
  end

  module Adapter
    def native_database_types = super.merge(ulid: { name: "ulid" })

    private

    def initialize_type_map(m = type_map)
      m.register_type "ulid", Type.new # by name: the adapter finds its OID, and ulid[]'s, on connect
      super
    end
  end

  module ColumnMethods # t.ulid :parent_id (create_table, change_table, schema.rb)
    def ulid(*names, **options) = names.each { |name| column(name, :ulid, **options) }
  end

  ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(Adapter)
  ActiveRecord::ConnectionAdapters::PostgreSQL::TableDefinition.include(ColumnMethods)
  ActiveRecord::ConnectionAdapters::PostgreSQL::Table.include(ColumnMethods)
  ActiveRecord::Type.register(:ulid, Type, adapter: :postgresql) # attribute :x, :ulid
end

class Event < ActiveRecord::Base
  belongs_to :parent, class_name: "Event", optional: true
  has_many :children, class_name: "Event", foreign_key: :parent_id
end

if $PROGRAM_NAME == __FILE__
  ActiveRecord::Base.establish_connection(adapter: "postgresql") # PG* environment variables
  migrations = File.join(__dir__, "db/migrate")
  if ActiveRecord.version >= Gem::Version.new("7.1") # the schema_migrations table is the context's own
    ActiveRecord::MigrationContext.new(migrations).migrate
  else
    ActiveRecord::MigrationContext.new(migrations, ActiveRecord::SchemaMigration).migrate
  end
  event = Event.create!(what: "signup")
  last_hour = Event.where("id BETWEEN ulid_min(?) AND ulid_max(?)", 1.hour.ago, Time.now)
  puts [event.id.size, last_hour.include?(event)].inspect # [26, true]
end
