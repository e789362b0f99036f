//! Hash maps keyed by node addresses whose buckets follow the addresses.
//!
//! Passes keep per-node tables (rewrites already done, free variables, memoised
//! intervals, visited sets) with up to one entry per node of the input. A general-purpose
//! hash scatters the nodes of one statement over the whole table, so once the table
//! outgrows the processor's caches every lookup is a miss to memory, and doubling the
//! input more than doubles the time. Nodes built together sit together in memory, and
//! passes visit them together; a hash whose low bits are the address itself sends them to
//! neighbouring buckets, so the table is read in about the order the input was built.
//!
//! Measured on a walk that records each node of a LetStmt chain in a table (8k to 64k
//! lets; `cargo run --release -p loopir-bounds --example scaling -- "table walk" "" 9`,
//! three runs): with rustc-hash's hash the time grew ×2.05–2.11, ×2.07–2.16, ×2.21–2.26
//! per doubling, with this one ×1.86–1.88, ×1.98–2.01, ×2.06, and the largest size took
//! 73–78% of the time.
//!
//! `hashbrown` (behind `std`'s map) picks the bucket from the low bits of the hash and a
//! 7-bit tag from the top bits; the top bits here are mixed so that tags stay well spread.

use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for keys that start with an address (a pointer or a `usize` from one).
///
/// The first integer written is taken as an address: its bits below 64 KiB, less the
/// alignment every node shares, give the bucket's place in a run of buckets that the
/// higher bits pick at random. Further integers (binding ids, contexts) shift the bucket a
/// little and are mixed into the tag. Byte strings are hashed whole and the hash taken as
/// the address, so any key type is accepted (it just has no locality).
#[derive(Default, Clone, Copy)]
pub struct AddressHasher {
    address: u64,
    rest: u64,
    words: u32,
}

/// The multiplier of rustc-hash (an odd constant with well-spread bits).
pub(crate) const K: u64 = 0xf135_7aea_2e62_a9c5;

/// The bits of the hash that select the bucket (all but hashbrown's 7-bit tag).
pub(crate) const BUCKET_BITS: u64 = (1 << 57) - 1;

/// A hash for `hashbrown` from a bucket (its low bits) and a tag (its top 7 bits).
pub(crate) fn bucket_and_tag(bucket: u64, tag: u64) -> u64 {
    (tag & !BUCKET_BITS) | (bucket & BUCKET_BITS)
}

/// One step of a multiplicative mix (rustc-hash's).
pub(crate) fn mix(state: u64, word: u64) -> u64 {
    (state.rotate_left(5) ^ word).wrapping_mul(K)
}

impl AddressHasher {
    fn word(&mut self, x: u64) {
        if self.words == 0 {
            self.address = x;
        } else {
            self.rest = mix(self.rest, x);
        }
        self.words += 1;
    }
}

impl Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        let h = bytes.chunks(8).fold(bytes.len() as u64, |h, chunk| {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            mix(h, u64::from_le_bytes(w))
        });
        // Into the address, not the rest: a slice's length, written first, would
        // otherwise stand as the address and every slice of one length share a bucket.
        let a = mix(self.address, h);
        // A product's low bits depend only on its operands' low bits: fold the high
        // half down, since the bucket comes from the low bits.
        self.address = a ^ (a >> 32);
        self.words += 1;
    }

    fn write_u64(&mut self, x: u64) {
        self.word(x);
    }

    fn write_usize(&mut self, x: usize) {
        self.word(x as u64);
    }

    fn write_u32(&mut self, x: u32) {
        self.word(u64::from(x));
    }

    fn finish(&self) -> u64 {
        // Within a 64 KiB page the bucket follows the address (less the 16-byte alignment
        // every node has), so neighbours land in neighbouring buckets; each page starts at
        // an offset of its own, so that the same offset in different pages (where an
        // allocator puts objects of one size) does not fall into the same bucket. That
        // offset is the high half of a multiplicative hash of the page: its best-mixed bits.
        let page_offset = (self.address >> 16).wrapping_mul(K) >> 32;
        let bucket = (self.address >> 4).wrapping_add(page_offset).wrapping_add(self.rest >> 58);
        bucket_and_tag(bucket, (self.address ^ self.rest).wrapping_mul(K))
    }
}

/// A map keyed by addresses (see the module docs).
pub type AddressMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<AddressHasher>>;

/// A set of addresses (see the module docs).
pub type AddressSet<K> = std::collections::HashSet<K, BuildHasherDefault<AddressHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    fn hash<T: std::hash::Hash>(x: T) -> u64 {
        BuildHasherDefault::<AddressHasher>::default().hash_one(x)
    }

    #[test]
    fn neighbouring_addresses_get_neighbouring_buckets() {
        let (a, b) = (hash(0x1000usize), hash(0x1060usize));
        assert_eq!((b & BUCKET_BITS) - (a & BUCKET_BITS), 6);
    }

    /// How many distinct buckets of a table of `buckets` the keys fall into.
    fn spread(keys: impl Iterator<Item = usize>, buckets: u64) -> usize {
        keys.map(|k| hash(k) & (buckets - 1)).collect::<std::collections::HashSet<_>>().len()
    }

    #[test]
    fn one_offset_in_many_pages_spreads_like_a_random_hash() {
        // 4096 keys in a table of 8192 buckets: a random hash fills about 3220 buckets,
        // the bare address 2 (page-aligned) or 16 (4 KiB apart).
        let page_aligned = spread((0..4096usize).map(|i| 0x7f00_0000_0000 + (i << 16)), 8192);
        let page_strided = spread((0..4096usize).map(|i| 0x7f00_0000_0000 + (i << 12)), 8192);
        assert!(page_aligned > 2500 && page_strided > 2500, "{page_aligned} and {page_strided} buckets");
    }

    #[test]
    fn nodes_packed_in_pages_fill_distinct_buckets() {
        // 16 pages of 96-byte objects (682 per page), 10912 keys in 16384 buckets.
        let keys =
            (0..16usize).flat_map(|p| (0..682usize).map(move |i| 0x5500_0000_0000 + (p << 16) + 96 * i));
        assert!(spread(keys, 16384) > 9000);
    }

    #[test]
    fn tags_differ_between_neighbours() {
        let tags: std::collections::HashSet<u64> =
            (0..64usize).map(|i| hash(0x1000 + 16 * i) >> 57).collect();
        assert!(tags.len() > 32, "{} distinct tags", tags.len());
    }

    #[test]
    fn extra_words_separate_keys_of_one_address() {
        assert_ne!(hash((0x1000usize, 1u64)), hash((0x1000usize, 2u64)));
    }

    #[test]
    fn byte_strings_spread_over_the_buckets() {
        let buckets: std::collections::HashSet<u64> =
            (0..1000).map(|i| hash(format!("name{i}").as_bytes()) & 4095).collect();
        // A random hash fills about 890 of 4096 buckets with 1000 keys.
        assert!(buckets.len() > 800, "{} buckets", buckets.len());
    }

    #[test]
    fn maps_behave_as_maps() {
        let mut m: AddressMap<(usize, u64), usize> = AddressMap::default();
        for i in 0..10_000usize {
            m.insert((0x10_0000 + 96 * i, (i % 3) as u64), i);
        }
        assert_eq!(m.len(), 10_000);
        assert!((0..10_000usize).all(|i| m[&(0x10_0000 + 96 * i, (i % 3) as u64)] == i));
    }
}
