// pgx v4: ulid scans into a string as it is (text); ulidpgx.Register switches it to binary.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v4"
	"ulidclients/ulidpgx"
)

func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "") // PG* environment variables
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer conn.Close(ctx)
	if err := ulidpgx.Register(ctx, conn); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var id string
	var n int
	err = conn.QueryRow(ctx, "SELECT gen_ulid()").Scan(&id)
	if err == nil {
		err = conn.QueryRow(ctx, "SELECT count(*) FROM (SELECT $1::ulid AS id) s WHERE id BETWEEN ulid_min($2) AND ulid_max($3)",
			id, time.Now().Add(-time.Hour), time.Now()).Scan(&n)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(len(id), n) // 26 1
}
