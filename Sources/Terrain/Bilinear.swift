/// The bilinear height of a grid cell, the one interpolation every DEM here uses (`HGTTile`,
/// `GeoTIFFDEM`): `h00·(1−fx)(1−fy) + h01·fx(1−fy) + h10·(1−fx)fy + h11·fx·fy`, with `h00` the
/// cell's north-west sample, `h01` its north-east, `h10` south-west and `h11` south-east, and
/// `fx`, `fy` in [0, 1] the fractions east and south.
///
/// A void (NaN) that carries weight gives nil, so no height is invented where the survey had none;
/// a void whose weight is exactly zero (the point lies on the far side of the cell's grid line) is
/// left out of the sum. O(1), no allocation.
@inlinable
func bilinearHeight(_ h00: Double, _ h01: Double, _ h10: Double, _ h11: Double, fx: Double, fy: Double) -> Double? {
    let w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy
    if (h00.isNaN && w00 > 0) || (h01.isNaN && w01 > 0) || (h10.isNaN && w10 > 0) || (h11.isNaN && w11 > 0) {
        return nil
    }
    // NaN × 0 is NaN, so a void of zero weight is skipped rather than multiplied.
    var sum = 0.0
    if w00 > 0 { sum += h00 * w00 }
    if w01 > 0 { sum += h01 * w01 }
    if w10 > 0 { sum += h10 * w10 }
    if w11 > 0 { sum += h11 * w11 }
    return sum
}

/// The height at (`x`, `y`) of a grid of `width × height` samples held row by row, north row first
/// (`x` columns east of column 0 and `y` rows south of row 0, both within the grid): `bilinearHeight`
/// of the cell whose north-west sample is at (⌊x⌋, ⌊y⌋), each sample in metres through `metres` (NaN
/// for a void). On the last row or column the last cell is used, so the edge samples are reached.
/// The one grid lookup of `HGTTile` and `GeoTIFFDEM`. O(1), four array reads, no allocation.
@inlinable
func gridHeight<Sample>(_ samples: [Sample], width: Int, height: Int, x: Double, y: Double,
                        metres: (Sample) -> Double) -> Double? {
    let row = min(Int(y), height - 2), column = min(Int(x), width - 2)
    let fy = y - Double(row), fx = x - Double(column)
    return samples.withUnsafeBufferPointer { s -> Double? in
        let k = row * width + column
        return bilinearHeight(metres(s[k]), metres(s[k + 1]), metres(s[k + width]), metres(s[k + width + 1]), fx: fx, fy: fy)
    }
}

/// The heights a DEM sample may have; anything else is a void. No ground on Earth lies outside
/// them, and nodata sentinels (−32768, −9999, ±3.4e38, ±1e30, infinities, NaN) all do, so a file
/// whose nodata value is missing or wrong still gives no absurd height.
public enum PlausibleHeight {
    /// Metres: the Dead Sea shore (−430 m) is the lowest dry land; the rest is room for the geoid.
    public static let minimum: Double = -500
    /// Metres: Everest is 8849 m high.
    public static let maximum: Double = 9000
}

/// `height` when it is a plausible height of the ground (see `PlausibleHeight`), NaN (a void) otherwise.
@inlinable
func plausibleHeight(_ height: Double) -> Double {
    height >= PlausibleHeight.minimum && height <= PlausibleHeight.maximum ? height : .nan
}
