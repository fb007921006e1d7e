//! Synthetic greyscale photographs behind `--arg TYPE[N]=image:SEED[:WIDTH]`: launch data for
//! kernels whose memory accesses depend on the pixels, as the XOR paper's histograms do
//! (van den Braak et al., IEEE TC, §7.1: "the parameters of the hash functions are determined
//! using a (randomly selected) image, and the results ... are obtained by averaging the results of
//! 10 other images").
//!
//! Real photographs are not uniform bytes: neighbouring pixels are nearly equal (their power
//! spectrum falls about as 1/f², Field, JOSA A 1987), and they hold flat regions (sky, walls)
//! bounded by edges. Uniform random bytes, the SDK's histogram input, have none of this, and it
//! decides whether a histogram's updates collide. Each image here is that mix, built from the
//! seed alone with [`SplitMix64`] (so every platform and wasm give the same bytes):
//! - a 1/f field: value noise over octaves from a quarter of the width down to 4 pixels, each
//!   octave's amplitude proportional to its scale, interpolated with a smoothstep;
//! - a few flat discs and rectangles of one grey each (objects and sky);
//! - sensor noise of a couple of grey levels;
//! - an exposure: the field mapped onto a random range of grey levels.
//!
//! This is a statistical stand-in for the paper's ten real images, which are not given.

use super::SplitMix64;

/// The side of a square image when the spec gives none.
pub const DEFAULT_WIDTH: usize = 256;

/// `bytes` bytes of consecutive `width` x `width` images, image `i` made from seed
/// `seed * 1,000,003 + i`; a last partial image is cut where the buffer ends.
pub fn photographs(seed: u64, width: usize, bytes: usize) -> Vec<u8> {
    let per_image = width * width;
    let mut out = Vec::with_capacity(bytes);
    let mut index = 0u64;
    while out.len() < bytes {
        let image = photograph(seed.wrapping_mul(1_000_003).wrapping_add(index), width);
        let take = per_image.min(bytes - out.len());
        out.extend_from_slice(&image[..take]);
        index += 1;
    }
    out
}

/// One `width` x `width` photograph, row-major, one byte a pixel.
pub fn photograph(seed: u64, width: usize) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut field = vec![0f32; width * width];
    add_one_over_f(&mut field, width, &mut rng);
    add_flat_shapes(&mut field, width, &mut rng);
    expose(&field, &mut rng)
}

/// Value noise summed over octaves, amplitude proportional to the lattice spacing (1/f).
fn add_one_over_f(field: &mut [f32], width: usize, rng: &mut SplitMix64) {
    let mut spacing = (width / 4).max(4);
    while spacing >= 4 {
        let cells = width / spacing + 2;
        let lattice: Vec<f32> = (0..cells * cells)
            .map(|_| rng.next_f32() * 2.0 - 1.0)
            .collect();
        let amplitude = spacing as f32;
        for y in 0..width {
            let (gy, fy) = (
                y / spacing,
                smoothstep((y % spacing) as f32 / spacing as f32),
            );
            for x in 0..width {
                let (gx, fx) = (
                    x / spacing,
                    smoothstep((x % spacing) as f32 / spacing as f32),
                );
                let at = |cx: usize, cy: usize| lattice[cy * cells + cx];
                let top = at(gx, gy) + (at(gx + 1, gy) - at(gx, gy)) * fx;
                let bottom = at(gx, gy + 1) + (at(gx + 1, gy + 1) - at(gx, gy + 1)) * fx;
                field[y * width + x] += amplitude * (top + (bottom - top) * fy);
            }
        }
        spacing /= 2;
    }
}

fn smoothstep(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// Three to eight shapes, each covering its pixels with one level of the field's range.
fn add_flat_shapes(field: &mut [f32], width: usize, rng: &mut SplitMix64) {
    let (lo, hi) = field
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let shapes = 3 + (rng.next_u64() % 6) as usize;
    let w = width as f32;
    for _ in 0..shapes {
        let level = lo + (hi - lo) * rng.next_f32();
        let (cx, cy) = (rng.next_f32() * w, rng.next_f32() * w);
        let size = w * (0.08 + 0.3 * rng.next_f32());
        let disc = rng.next_u64() % 2 == 0;
        for y in 0..width {
            for x in 0..width {
                let (dx, dy) = (x as f32 - cx, y as f32 - cy);
                let inside = if disc {
                    dx * dx + dy * dy < size * size
                } else {
                    dx.abs() < size && dy.abs() < size * 0.6
                };
                if inside {
                    field[y * width + x] = level;
                }
            }
        }
    }
}

/// Maps the field onto a random range of grey levels and adds sensor noise of up to two levels.
fn expose(field: &[f32], rng: &mut SplitMix64) -> Vec<u8> {
    let (lo, hi) = field
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let span = (hi - lo).max(f32::EPSILON);
    let dark = rng.next_f32() * 60.0;
    let bright = 160.0 + rng.next_f32() * 95.0;
    field
        .iter()
        .map(|&v| {
            let noise = (rng.next_f32() + rng.next_f32() - 1.0) * 2.0;
            let grey = dark + (bright - dark) * (v - lo) / span + noise;
            grey.round().clamp(0.0, 255.0) as u8
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_images_and_another_seed_others() {
        assert_eq!(photographs(3, 64, 10_000), photographs(3, 64, 10_000));
        assert_ne!(photographs(3, 64, 4_096), photographs(4, 64, 4_096));
        let two = photographs(3, 64, 8_192);
        assert_eq!(two.len(), 8_192);
        assert_ne!(two[..4_096], two[4_096..], "each image has its own seed");
        assert_eq!(photographs(3, 64, 5_000)[..4_096], two[..4_096]);
    }

    #[test]
    fn neighbouring_pixels_are_close_as_in_photographs_and_unlike_uniform_bytes() {
        let image = photograph(11, 256);
        let steps: Vec<u32> = image
            .windows(2)
            .map(|p| p[0].abs_diff(p[1]) as u32)
            .collect();
        let mut sorted = steps.clone();
        sorted.sort_unstable();
        let median = sorted[sorted.len() / 2];
        assert!(median <= 3, "median step between neighbours {median}");
        // Uniform bytes step by 85 on average; a photograph's bins still spread.
        let mut bins = [0u32; 256];
        image.iter().for_each(|&p| bins[p as usize] += 1);
        let used = bins.iter().filter(|&&n| n > 0).count();
        assert!(used >= 64, "{used} grey levels used");
        let mean_step = steps.iter().sum::<u32>() as f64 / steps.len() as f64;
        assert!(mean_step < 10.0, "mean step {mean_step}");
    }
}
