import Scanning
import Testing

struct SystemPressureWatchTests {
    @Test func theOperatorHearsOnceWhenPressureBecomesSeriousAndAgainAfterItFell() {
        var watch = SystemPressureWatch()
        let heard = [SystemPressureLevel.nominal, .fair, .serious, .critical, .serious, .fair, .critical, .shutdown].map { watch.update($0) }
        #expect(heard == [false, false, true, false, false, false, true, false])
    }
}
