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
	return lcsBits(p, r, alphabet)
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
// carries from each word into the next, so the blocks are processed one
// after another over all prediction tokens, keeping each row's carry out
// of the previous block. Only the current block's masks exist at a time,
// so memory stays O(len(pred) + alphabet) however long the pages are.
func lcsBits(pred, ref []int32, alphabet int) int {
	if len(pred) == 0 || len(ref) == 0 {
		return 0
	}
	masks := make([]uint64, alphabet)
	carries := make([]uint64, len(pred))
	zeros := 0
	for lo := 0; lo < len(ref); lo += 64 {
		hi := min(lo+64, len(ref))
		for k := lo; k < hi; k++ {
			masks[ref[k]] |= 1 << uint(k-lo)
		}
		v := ^uint64(0)
		for i, c := range pred {
			u := v & masks[c]
			sum, carry := bits.Add64(v, u, carries[i])
			carries[i] = carry
			v = sum | (v &^ u)
		}
		width := hi - lo
		valid := ^uint64(0) >> uint(64-width)
		zeros += width - bits.OnesCount64(v&valid)
		for k := lo; k < hi; k++ {
			masks[ref[k]] = 0
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
