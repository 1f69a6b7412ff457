/// Repeated measurements of one figure and their median, minimum and maximum.
struct Sample: Encodable {
    /// Every run's value, in the order measured.
    var runs: [Double]

    /// The middle value (the mean of the two middle values for an even count).
    var median: Double {
        let sorted = runs.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The smallest value.
    var min: Double { runs.min() ?? 0 }

    /// The largest value.
    var max: Double { runs.max() ?? 0 }

    /// Runs `body` `count` times, recording the value it returns each time; with `warmUp`, one
    /// more run first, whose value is dropped. `body` receives the run's number (0 for the
    /// warm-up, then 1, 2, …).
    static func collect(_ count: Int, warmUp: Bool = false, _ body: (Int) throws -> Double) rethrows -> Sample {
        if warmUp { _ = try body(0) }
        var runs: [Double] = []
        for run in 1...Swift.max(count, 1) {
            runs.append(try body(run))
        }
        return Sample(runs: runs)
    }

    /// Times `count` runs of `body` in seconds, after one untimed warm-up run unless `warmUp`
    /// is false. `body` receives the run's number as in ``collect(_:warmUp:_:)``.
    static func time(_ count: Int, warmUp: Bool = true, _ body: (Int) throws -> Void) rethrows -> Sample {
        try collect(count, warmUp: warmUp) { run in
            let clock = ContinuousClock()
            let start = clock.now
            try body(run)
            return (clock.now - start).seconds
        }
    }

    private enum CodingKeys: String, CodingKey {
        case runs, median, min, max
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runs, forKey: .runs)
        try container.encode(median, forKey: .median)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
    }
}
