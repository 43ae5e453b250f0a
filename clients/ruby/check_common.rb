# Check counting and test data shared by the Ruby client checks (prints ok/FAIL lines).
require "securerandom"

module CheckCommon
  KNOWN = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
  KNOWN_BYTES = ["01563e3ab5d3d6764c61efb99302bd5b"].pack("H*")
  KNOWN_LOWER_ALIAS = KNOWN.downcase.tr("1", "l") # reads as KNOWN
  MAX = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
  BAD = "01ARZ3NDEKTSV4RRFFQ69G5FAU" # U is not Crockford Base32
  BAD_MESSAGE = "invalid input syntax for type ulid: \"#{BAD}\"".freeze
  BULK_ROWS = 2000
  # time-range data: one row per hour from 2024-01-01 for 48 hours; [10:00, 19:00] holds 10 of them
  RANGE_ROWS_SQL = "SELECT gen_ulid(TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '1 hour') AS id " \
                   "FROM generate_series(0, 47) AS i".freeze
  RANGE_LO = Time.utc(2024, 1, 1, 10)
  RANGE_HI = Time.utc(2024, 1, 1, 19)
  RANGE_COUNT = 10
  ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".freeze

  def self.ulid_string(bytes) = (0...26).map { |i| ALPHABET[(bytes.unpack1("H*").to_i(16) >> (125 - 5 * i)) & 31] }.join
  def self.bulk_ids(n = BULK_ROWS) = Array.new(n) { ulid_string(SecureRandom.random_bytes(16)) }

  class Checks
    attr_reader :count, :failed

    def initialize(driver)
      @driver = driver
      @count = 0
      @failed = 0
    end

    def ok(what)
      @count += 1
      puts "ok   #{@driver}: #{what}"
    end

    def bad(what)
      @count += 1
      @failed += 1
      puts "FAIL #{@driver}: #{what}"
    end

    def note(what) = puts("# #{@driver}: #{what}")

    # inspect, cut to 300 characters (a failed bulk comparison would print every id)
    def short(value) = (s = value.inspect).size <= 300 ? s : "#{s[0, 300]}... (#{s.size} characters)"

    def equal(what, got, want) = got == want ? ok(what) : bad("#{what}: got #{short(got)}, expected #{short(want)}")

    def ulid?(what, v)
      v.is_a?(String) && v.match?(/\A[0-7][0-9A-HJKMNP-TV-Z]{25}\z/) ? ok("#{what}: #{v}") : bad("#{what}: #{v.inspect}")
    end

    # the block must raise a PG::InvalidTextRepresentation (SQLSTATE 22P02), itself or as the cause of
    # the error it raises (error_class: what the caller sees)
    def bad_string(what, error_class)
      yield
      bad("#{what}: no error")
    rescue error_class => e
      pg = e.is_a?(PG::Error) ? e : e.cause
      got = pg.is_a?(PG::InvalidTextRepresentation) &&
            [pg.result.error_field(PG::PG_DIAG_SQLSTATE), pg.result.error_field(PG::PG_DIAG_MESSAGE_PRIMARY)]
      equal("#{what}: #{e.class} (cause #{pg.class})", got, ["22P02", BAD_MESSAGE])
    end

    # a step that must not raise (its checks inside); a raise is one failure
    def run(what)
      yield
    rescue StandardError => e
      bad("#{what}: unexpected #{e.class}: #{e.message}\n#{e.backtrace.first(5).join("\n")}")
    end

    def exit!
      puts "# #{@driver}: #{@count} checks, #{@failed} failed"
      exit(@failed.zero? && @count.positive? ? 0 : 1)
    end
  end
end
