//go:build ignore

// gen.go writes the two statement pages of the ground-truth example:
// small grey PNGs whose "text" the localjudge stand-in reads from tEXt
// chunks (keyword "docscore:<path>"). Run: go run examples/judges/pages/gen.go
package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
)

func main() {
	dir := filepath.Join("examples", "judges", "pages")
	pages := []struct {
		name   string
		fields [][2]string
	}{
		{"page-001.png", [][2]string{{"$.currency", "USD"}, {"$.amount", "1,250.00"}}},
		{"page-002.png", [][2]string{{"$.account_name", "J. Smith"}}},
	}
	for _, p := range pages {
		img := image.NewGray(image.Rect(0, 0, 120, 80))
		for y := 0; y < 80; y++ {
			for x := 0; x < 120; x++ {
				c := uint8(245)
				if y%16 < 6 && x > 10 && x < 110 {
					c = 120
				}
				img.SetGray(x, y, color.Gray{c})
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			panic(err)
		}
		b := buf.Bytes()
		// Insert the tEXt chunks right after IHDR (8-byte signature + 25-byte chunk).
		var chunks []byte
		for _, f := range p.fields {
			data := append([]byte("docscore:"+f[0]+"\x00"), f[1]...)
			chunk := make([]byte, 8, 12+len(data))
			binary.BigEndian.PutUint32(chunk, uint32(len(data)))
			copy(chunk[4:], "tEXt")
			chunk = append(chunk, data...)
			chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
			chunks = append(chunks, chunk...)
		}
		out := append(append(append([]byte{}, b[:33]...), chunks...), b[33:]...)
		if err := os.WriteFile(filepath.Join(dir, p.name), out, 0o644); err != nil {
			panic(err)
		}
	}
}
