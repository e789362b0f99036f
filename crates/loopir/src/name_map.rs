//! Hash maps keyed by names whose buckets follow the numbers in the names.
//!
//! Names in lowered IR are mostly a stem and counters: `t123`, `s3.17`, `f4.s0.x.min`.
//! A general-purpose hash scatters `t1`, `t2`, `t3`, ... over the whole table, so a pass
//! that binds a long run of such names (a let chain, the stages of a pipeline) misses the
//! processor's caches on every binding once the table is large. Here the bucket is a hash
//! of the name with its digits left out plus the value of its digits: names that differ
//! only in a counter get neighbouring buckets, and a run of them is a run of the table.
//! The 7-bit tag that `hashbrown` (behind `std`'s map) takes from the top bits is a hash
//! of the whole name, so neighbours are still told apart without comparing them.

use std::hash::{BuildHasherDefault, Hasher};

use crate::address_map::{bucket_and_tag, mix};

/// A hasher for names (any key hashed as bytes; see the module docs).
#[derive(Default, Clone, Copy)]
pub struct NameHasher {
    /// Hash of the non-digit bytes.
    stem: u64,
    /// The digit runs read so far, combined.
    number: u64,
    /// The digit run being read.
    run: u64,
    /// Bytes after the name (`str`'s 0xff terminator).
    tail: u64,
}

/// How far apart the buckets of `a<i>.<j>` and `a<i+1>.<j>` are: well past the counters
/// of one level, so that two counters in a name do not collide for small values.
const RUN_SPACING: u64 = 1031;

impl NameHasher {
    fn end_run(&mut self) {
        self.number = self.number.wrapping_mul(RUN_SPACING).wrapping_add(self.run);
        self.run = 0;
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut in_run = false;
        for &b in bytes {
            if b.is_ascii_digit() {
                self.run = self.run.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
                in_run = true;
            } else {
                if in_run {
                    self.end_run();
                    in_run = false;
                }
                self.stem = mix(self.stem, u64::from(b));
            }
        }
        if in_run {
            self.end_run();
        }
    }

    fn write_u8(&mut self, b: u8) {
        // `str`'s hash ends with a 0xff byte; it only goes into the tag.
        self.tail = mix(self.tail, u64::from(b));
    }

    /// An integer field of a composite key (`(name, index)`) counts like a counter.
    fn write_u64(&mut self, x: u64) {
        self.run = x;
        self.end_run();
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn finish(&self) -> u64 {
        // Counters are spread over every third bucket: a run of consecutive names stays
        // together but never fills a stretch of the table, which would make every probe
        // that lands in it (a name not in the map, a removal's tombstone) go far.
        let bucket = self.stem.wrapping_add(self.number.wrapping_mul(3));
        // Names with the same stem and counters in other places (`a1b`, `ab1`) share
        // bucket and tag; they are rare, and equality still tells them apart.
        bucket_and_tag(bucket, mix(self.stem ^ self.tail, self.number))
    }
}

/// A map keyed by names (see the module docs).
pub type NameMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<NameHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    use crate::address_map::BUCKET_BITS;

    fn hash(s: &str) -> u64 {
        BuildHasherDefault::<NameHasher>::default().hash_one(s)
    }

    #[test]
    fn counters_give_neighbouring_buckets() {
        assert_eq!((hash("t124") & BUCKET_BITS) - (hash("t123") & BUCKET_BITS), 3);
        assert_eq!((hash("s3.18") & BUCKET_BITS) - (hash("s3.17") & BUCKET_BITS), 3);
        assert_ne!(hash("t1") & BUCKET_BITS, hash("u1") & BUCKET_BITS);
    }

    #[test]
    fn tags_tell_neighbours_apart() {
        let tags: std::collections::HashSet<u64> = (0..64).map(|i| hash(&format!("t{i}")) >> 57).collect();
        assert!(tags.len() > 32, "{} distinct tags", tags.len());
    }

    #[test]
    fn integer_fields_count_like_counters() {
        let b = BuildHasherDefault::<NameHasher>::default();
        let (a, c) = (b.hash_one(("f", 1u32)), b.hash_one(("f", 2u32)));
        assert_eq!((c & BUCKET_BITS) - (a & BUCKET_BITS), 3);
        assert_ne!(a >> 57, c >> 57);
    }

    #[test]
    fn strings_and_shared_names_hash_alike() {
        let name: crate::Name = crate::name("f4.s0.x.min");
        let b = BuildHasherDefault::<NameHasher>::default();
        assert_eq!(b.hash_one(&name), b.hash_one("f4.s0.x.min"));
        let mut m: NameMap<crate::Name, usize> = NameMap::default();
        for i in 0..5000 {
            m.insert(crate::name(&format!("s{}.{}", i / 100, i % 100)), i);
        }
        assert!((0..5000).all(|i| m.get(format!("s{}.{}", i / 100, i % 100).as_str()) == Some(&i)));
    }
}
