-- The Prisma recipe's migration. Prisma writes TEXT for String fields: made with
-- `prisma migrate dev --create-only`, then edited to ulid (and the extension added).
CREATE EXTENSION IF NOT EXISTS ulid;

-- CreateTable
CREATE TABLE "events" (
    "id" ulid NOT NULL DEFAULT gen_ulid(),
    "parent_id" ulid,
    "tags" ulid[],
    "what" TEXT NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "events"("id") ON DELETE SET NULL ON UPDATE CASCADE;
