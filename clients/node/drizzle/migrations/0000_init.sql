CREATE TABLE "events" (
	"id" "ulid" PRIMARY KEY DEFAULT gen_ulid() NOT NULL,
	"parent" "ulid",
	"tags" "ulid"[],
	"what" text NOT NULL
);
