/// Runs `work` on an object every `interval` (on the I/O executor: a sweep may touch the disk),
/// from a detached task at utility priority, for as long as both the object and this value live (the task holds the object weakly). Dropping the
/// value cancels the task: an owner keeps it in a stored property and so stops it in its deinit.
final class PeriodicSweep: Sendable {
    private let task: Task<Void, Never>

    init<Owner: AnyObject & Sendable>(
        every interval: Duration, on owner: Owner, _ work: @escaping @Sendable (Owner) -> Void
    ) {
        task = Task.detached(priority: .utility) { [weak owner] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let owner else { return }
                _ = try? await BlockingExecutor.io.run { work(owner) }
            }
        }
    }

    deinit { task.cancel() }
}
