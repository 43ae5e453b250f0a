// drizzle-kit: `npx drizzle-kit generate` writes the migration in drizzle/migrations from the schema.
export default { dialect: 'postgresql', schema: './drizzle/schema.js', out: './drizzle/migrations' };
