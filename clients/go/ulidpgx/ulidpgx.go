// Package ulidpgx: the ulid type for pgx v4, read and written as its 26-character string, in
// binary (16 bytes) once registered on a connection.
package ulidpgx

import (
	"context"
	"fmt"

	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ULID is a pgtype value: its 16 bytes, or NULL.
type ULID struct {
	Bytes  [16]byte
	Status pgtype.Status
}

// Register makes conn read and write ulid and ulid[] in binary, as ULID (strings through Scan).
func Register(ctx context.Context, conn *pgx.Conn) error {
	var oid, arrayOID uint32
	err := conn.QueryRow(ctx, "SELECT 'ulid'::regtype::oid, 'ulid[]'::regtype::oid").Scan(&oid, &arrayOID)
	if err != nil {
		return err
	}
	ci := conn.ConnInfo()
	ci.RegisterDataType(pgtype.DataType{Value: &ULID{}, Name: "ulid", OID: oid})
	newULID := func() pgtype.ValueTranscoder { return &ULID{} }
	ci.RegisterDataType(pgtype.DataType{Value: pgtype.NewArrayType("_ulid", oid, newULID), Name: "_ulid", OID: arrayOID})
	return nil
}

// Parse reads 26 Crockford Base32 characters as ulid_in does.
func Parse(s string) (b [16]byte, err error) {
	if len(s) != 26 {
		return b, fmt.Errorf("invalid ULID %q: %d characters, not 26", s, len(s))
	}
	var hi, lo uint64 // the 130-bit number, as 2 + 128 bits
	for i := 0; i < 26; i++ {
		c := s[i] | 0x20 // lower case
		switch c {
		case 'i', 'l':
			c = '1'
		case 'o':
			c = '0'
		}
		v := -1
		for j := 0; j < 32; j++ {
			if alphabet[j]|0x20 == c {
				v = j
			}
		}
		if v < 0 || (i == 0 && v > 7) {
			return b, fmt.Errorf("invalid ULID %q: character %d", s, i+1)
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(v)
	}
	for i := 0; i < 8; i++ {
		b[i], b[8+i] = byte(hi>>(56-8*i)), byte(lo>>(56-8*i))
	}
	return b, nil
}

func (u ULID) String() string {
	var out [26]byte
	for i := 25; i >= 0; i-- { // take the low 5 bits, shift the 128-bit number right by 5
		out[i] = alphabet[u.Bytes[15]&31]
		for j := 15; j >= 0; j-- {
			u.Bytes[j] >>= 5
			if j > 0 {
				u.Bytes[j] |= u.Bytes[j-1] << 3
			}
		}
	}
	return string(out[:])
}

func (u *ULID) Set(src interface{}) (err error) {
	switch v := src.(type) {
	case nil:
		*u = ULID{Status: pgtype.Null}
	case string:
		u.Bytes, err = Parse(v)
		u.Status = pgtype.Present
	case [16]byte:
		*u = ULID{Bytes: v, Status: pgtype.Present}
	case pgtype.UUID: // the same 16 bytes: a key moved from uuid to ulid keeps taking the application's UUIDs
		*u = ULID{Bytes: v.Bytes, Status: v.Status}
	case ULID:
		*u = v
	default:
		return fmt.Errorf("cannot convert %T to ulid", src)
	}
	return err
}

func (u ULID) Get() interface{} {
	if u.Status != pgtype.Present {
		return nil
	}
	return u.String()
}

func (u *ULID) AssignTo(dst interface{}) error {
	switch d := dst.(type) {
	case *string:
		if u.Status != pgtype.Present {
			return fmt.Errorf("cannot assign NULL to *string")
		}
		*d = u.String()
	case **string:
		*d = nil
		if u.Status == pgtype.Present {
			s := u.String()
			*d = &s
		}
	case *[16]byte:
		*d = u.Bytes
	case *ULID:
		*d = *u
	default:
		return fmt.Errorf("cannot assign ulid to %T", dst)
	}
	return nil
}

func (u *ULID) DecodeText(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		return u.Set(nil)
	}
	return u.Set(string(src))
}

func (u *ULID) DecodeBinary(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		return u.Set(nil)
	}
	if len(src) != 16 {
		return fmt.Errorf("a binary ulid is 16 bytes, not %d", len(src))
	}
	*u = ULID{Status: pgtype.Present}
	copy(u.Bytes[:], src)
	return nil
}

func (u ULID) EncodeText(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	if u.Status != pgtype.Present {
		return nil, nil
	}
	return append(buf, u.String()...), nil
}

func (u ULID) EncodeBinary(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	if u.Status != pgtype.Present {
		return nil, nil
	}
	return append(buf, u.Bytes[:]...), nil
}
