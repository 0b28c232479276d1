package receipts

import "math/bits"

// LCS returns the length of the longest common subsequence of the token
// sequences pred and ref. It is bit-parallel (Allison–Dix, in Hyyrö's
// formulation): the reference is split into blocks of 64 positions, one
// machine word each, and every prediction token updates a whole block with
// a few word operations, so the cost is about len(pred)·len(ref)/64 steps.
// [LCSDP] computes the same number the plain way and is the test oracle.
func LCS(pred, ref []string) int {
	p, r, alphabet := tokenIDs(pred, ref)
	return lcsBits(nil, p, r, alphabet)
}

// LCSDP returns the length of the longest common subsequence of pred and
// ref with the textbook dynamic programme: len(pred)·len(ref) steps and two
// rows of memory. It is the oracle [LCS] is tested against.
func LCSDP(pred, ref []string) int {
	p, r, _ := tokenIDs(pred, ref)
	return lcsDP(p, r)
}

// tokenIDs numbers the distinct reference tokens and maps the prediction
// onto those numbers, dropping prediction tokens absent from the reference
// (they can never be part of a common subsequence).
func tokenIDs(pred, ref []string) (p, r []int32, alphabet int) {
	if len(pred) == 0 || len(ref) == 0 {
		return nil, nil, 0
	}
	ids := make(map[string]int32, len(ref))
	r = make([]int32, len(ref))
	for i, t := range ref {
		id, ok := ids[t]
		if !ok {
			id = int32(len(ids))
			ids[t] = id
		}
		r[i] = id
	}
	p = make([]int32, 0, len(pred))
	for _, t := range pred {
		if id, ok := ids[t]; ok {
			p = append(p, id)
		}
	}
	return p, r, len(ids)
}

// lcsBits is the bit-parallel LCS over token numbers in [0, alphabet).
//
// V holds one bit per reference position; a zero bit marks a position
// where the LCS length grows. Every prediction token c updates it as
//
//	U = V & M[c];  V = (V + U) | (V &^ U)
//
// where M[c] marks the reference positions holding c. The addition
// carries from each word into the next. The reference is processed in
// groups of four words (256 positions): within a group the carry passes
// from word to word in registers, and each row's carry out of the group
// is kept for the next group. Only the current group's masks exist at a
// time, so memory stays O(len(pred) + alphabet) however long the pages.
//
// Every 16 groups (4,096 reference positions) it looks at ctx (nil never
// is done) and stops once it is done, returning what it has: a page of
// 940,000 tokens took 13 s of CPU after its client had left.
func lcsBits(ctx Canceler, pred, ref []int32, alphabet int) int {
	if len(pred) == 0 || len(ref) == 0 {
		return 0
	}
	const group = 4
	masks := make([]uint64, alphabet*group)
	carries := make([]uint64, len(pred))
	zeros := 0
	for lo := 0; lo < len(ref); lo += 64 * group {
		if ctx != nil && lo&(64*group*16-1) == 0 && lo > 0 && ctx.Err() != nil {
			return zeros
		}
		hi := min(lo+64*group, len(ref))
		for k := lo; k < hi; k++ {
			off := k - lo
			masks[int(ref[k])*group+off>>6] |= 1 << uint(off&63)
		}
		v0, v1, v2, v3 := ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)
		for i, c := range pred {
			m := masks[int(c)*group : int(c)*group+group : int(c)*group+group]
			u0 := v0 & m[0]
			s0, k0 := bits.Add64(v0, u0, carries[i])
			v0 = s0 | (v0 &^ u0)
			u1 := v1 & m[1]
			s1, k1 := bits.Add64(v1, u1, k0)
			v1 = s1 | (v1 &^ u1)
			u2 := v2 & m[2]
			s2, k2 := bits.Add64(v2, u2, k1)
			v2 = s2 | (v2 &^ u2)
			u3 := v3 & m[3]
			s3, k3 := bits.Add64(v3, u3, k2)
			v3 = s3 | (v3 &^ u3)
			carries[i] = k3
		}
		for w, v := range [group]uint64{v0, v1, v2, v3} {
			width := min(max(hi-lo-64*w, 0), 64)
			if width == 0 {
				break
			}
			valid := ^uint64(0) >> uint(64-width)
			zeros += width - bits.OnesCount64(v&valid)
		}
		for k := lo; k < hi; k++ {
			masks[int(ref[k])*group+(k-lo)>>6] = 0
		}
	}
	return zeros
}

// lcsDP is the dynamic-programming LCS over token numbers.
func lcsDP(pred, ref []int32) int {
	if len(pred) == 0 || len(ref) == 0 {
		return 0
	}
	prev := make([]int32, len(ref)+1)
	cur := make([]int32, len(ref)+1)
	for _, c := range pred {
		for j, d := range ref {
			switch {
			case c == d:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return int(prev[len(ref)])
}
