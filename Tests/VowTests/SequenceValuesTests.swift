import Dispatch
import Testing
import Vow

@Suite struct SequenceValuesTests {
    @Test func lastValueWorksOnAForwardOnlyCollection() throws {
        #expect(try value(of: Promise.value(Set([5])).lastValue) == 5)
        #expect(isPromiseError(try error(of: Promise.value(Set<Int>()).lastValue), .emptySequence))
    }

    // MARK: mapValues

    @Test func mapValuesTransformsEachElement() throws {
        let mapped: Promise<[String]> = Promise.value([1, 2, 3]).mapValues { "\($0 * 2)" }
        #expect(try value(of: mapped) == ["2", "4", "6"])
    }

    @Test func mapValuesWithAThrowingTransformRejects() throws {
        let calls = Recorder<Int>()
        let mapped = Promise.value([1, 2, 3]).mapValues { element -> Int in
            calls.record(element)
            if element == 2 { throw TestError.boom }
            return element
        }
        #expect(try error(of: mapped) as? TestError == .boom)
        #expect(calls.all == [1, 2])
    }

    @Test func mapValuesPassesARejectionThrough() throws {
        let mapped = Promise<[Int]>(error: TestError.other).mapValues { $0 + 1 }
        #expect(try error(of: mapped) as? TestError == .other)
    }

    // MARK: flatMapValues

    @Test func flatMapValuesConcatenates() throws {
        let flattened = Promise.value([1, 2, 3]).flatMapValues { Array(repeating: $0, count: $0) }
        #expect(try value(of: flattened) == [1, 2, 2, 3, 3, 3])
    }

    @Test func flatMapValuesWithAThrowingTransformRejects() throws {
        let flattened = Promise.value([1, 2]).flatMapValues { _ -> [Int] in throw TestError.boom }
        #expect(try error(of: flattened) as? TestError == .boom)
    }

    // MARK: compactMapValues

    @Test func compactMapValuesDropsNils() throws {
        let parsed = Promise.value(["1", "x", "3"]).compactMapValues { Int($0) }
        #expect(try value(of: parsed) == [1, 3])
    }

    @Test func compactMapValuesOfOnlyNilsIsEmpty() throws {
        let parsed = Promise.value(["a", "b"]).compactMapValues { Int($0) }
        #expect(try value(of: parsed) == [])
    }

    @Test func compactMapValuesWithAThrowingTransformRejects() throws {
        let parsed = Promise.value(["1"]).compactMapValues { _ -> Int? in throw TestError.other }
        #expect(try error(of: parsed) as? TestError == .other)
    }

    // MARK: thenMap

    @Test func thenMapGathersEveryValueInOrder() throws {
        let worker = DispatchQueue(label: "vow.tests.sequence.worker", attributes: .concurrent)
        let gathered = Promise.value([3, 1, 2]).thenMap { element in
            worker.async(.promise) { element * 10 }
        }
        #expect(try value(of: gathered) == [30, 10, 20])
    }

    @Test func thenMapWaitsForPendingElements() throws {
        let pendings = (0..<3).map { _ in Promise<Int>.pending() }
        let promises = pendings.map(\.promise)
        let gathered = Promise.value([0, 1, 2]).thenMap(on: nil) { promises[$0] }
        #expect(gathered.isPending)
        for (index, pending) in pendings.enumerated().reversed() {
            pending.resolver.fulfill(index + 100)
        }
        #expect(try value(of: gathered) == [100, 101, 102])
    }

    @Test func thenMapOfAnEmptySequenceIsEmpty() throws {
        let gathered = Promise.value([Int]()).thenMap { Promise.value($0) }
        #expect(try value(of: gathered) == [])
    }

    @Test func thenMapRejectsWhenAnElementRejects() throws {
        let gathered = Promise.value([1, 2, 3]).thenMap { element -> Promise<Int> in
            element == 2 ? Promise(error: TestError.boom) : .value(element)
        }
        #expect(try error(of: gathered) as? TestError == .boom)
    }

    @Test func thenMapRejectsWhenThePendingElementRejects() throws {
        let (slow, resolver) = Promise<Int>.pending()
        let gathered = Promise.value([1, 2]).thenMap(on: nil) { element in
            element == 1 ? Promise.value(1) : slow
        }
        #expect(gathered.isPending)
        resolver.reject(TestError.other)
        #expect(try error(of: gathered) as? TestError == .other)
    }

    @Test func thenMapWithAThrowingTransformRejects() throws {
        let gathered = Promise.value([1, 2]).thenMap { element -> Promise<Int> in
            if element == 2 { throw TestError.boom }
            return .value(element)
        }
        #expect(try error(of: gathered) as? TestError == .boom)
    }

    // MARK: thenFlatMap

    @Test func thenFlatMapConcatenatesInOrder() throws {
        let flattened = Promise.value([1, 2]).thenFlatMap { element in
            Promise.value([element, element * 10])
        }
        #expect(try value(of: flattened) == [1, 10, 2, 20])
    }

    @Test func thenFlatMapRejectsWhenAnElementRejects() throws {
        let flattened = Promise.value([1, 2]).thenFlatMap { element -> Promise<[Int]> in
            element == 1 ? Promise(error: TestError.other) : .value([element])
        }
        #expect(try error(of: flattened) as? TestError == .other)
    }

    // MARK: filterValues

    @Test func filterValuesKeepsMatchingElements() throws {
        let evens = Promise.value(Array(1...8)).filterValues { $0.isMultiple(of: 2) }
        #expect(try value(of: evens) == [2, 4, 6, 8])
    }

    @Test func filterValuesPassesARejectionThrough() throws {
        let filtered = Promise<[Int]>(error: TestError.boom).filterValues { _ in true }
        #expect(try error(of: filtered) as? TestError == .boom)
    }

    // MARK: firstValue, lastValue

    @Test func firstValueIsTheFirstElement() throws {
        #expect(try value(of: Promise.value([7, 8, 9]).firstValue) == 7)
    }

    @Test func firstValueOfAnEmptySequenceRejects() throws {
        #expect(isPromiseError(try error(of: Promise.value([Int]()).firstValue), .emptySequence))
    }

    @Test func firstValueWhereFindsTheFirstMatch() throws {
        let match = Promise.value([1, 4, 6, 9]).firstValue { $0.isMultiple(of: 2) }
        #expect(try value(of: match) == 4)
    }

    @Test func firstValueWhereWithoutAMatchRejects() throws {
        #expect(
            isPromiseError(
                try error(of: Promise.value([1, 3, 5]).firstValue { $0.isMultiple(of: 2) }), .emptySequence))
    }

    @Test func lastValueIsTheLastElement() throws {
        #expect(try value(of: Promise.value(["a", "b", "c"]).lastValue) == "c")
    }

    @Test func lastValueOfAnEmptyCollectionRejects() throws {
        #expect(isPromiseError(try error(of: Promise.value([String]()).lastValue), .emptySequence))
    }

    @Test func firstAndLastValuePassARejectionThrough() throws {
        let failed = Promise<[Int]>(error: TestError.other)
        #expect(try error(of: failed.firstValue) as? TestError == .other)
        #expect(try error(of: failed.firstValue { _ in true }) as? TestError == .other)
        #expect(try error(of: failed.lastValue) as? TestError == .other)
    }

    // MARK: sortedValues

    @Test func sortedValuesSortsAscending() throws {
        let sorted = Promise.value([3, 1, 2, 1]).sortedValues()
        #expect(try value(of: sorted) == [1, 1, 2, 3])
    }

    @Test func sortedValuesWorksOnAnySequence() throws {
        let sorted = Promise.value(Set(["b", "c", "a"])).sortedValues()
        #expect(try value(of: sorted) == ["a", "b", "c"])
    }

    @Test func sortedValuesByAComparatorUsesItsOrder() throws {
        let sorted = Promise.value([5, 2, 3, 4, 1]).sortedValues { $0 > $1 }
        #expect(try value(of: sorted) == [5, 4, 3, 2, 1])
    }

    @Test func sortedValuesByAComparatorSortsElementsThatAreNotComparable() throws {
        struct Player: Sendable {
            let name: String
            let score: Int
        }
        let players = [Player(name: "b", score: 2), Player(name: "c", score: 9), Player(name: "a", score: 5)]
        let ranked = Promise.value(players).sortedValues { $0.score > $1.score }
        #expect(try value(of: ranked).map(\.name) == ["c", "a", "b"])
    }

    @Test func sortedValuesByAComparatorRunsOnTheGivenQueue() throws {
        let queue = TestQueue("vow.tests.sortedValues")
        let onQueue = Recorder<Bool>()
        let sorted = Promise.value(["b", "a"]).sortedValues(on: queue.queue) { left, right in
            onQueue.record(queue.isCurrent)
            return left < right
        }
        #expect(try value(of: sorted) == ["a", "b"])
        #expect(!onQueue.all.isEmpty && onQueue.all.allSatisfy { $0 })
    }

    @Test func sortedValuesByAComparatorPassesARejectionThrough() throws {
        let calls = Recorder<Int>()
        let sorted = Promise<[Int]>(error: TestError.other).sortedValues { left, right in
            calls.record(left)
            return left < right
        }
        #expect(try error(of: sorted) as? TestError == .other)
        #expect(calls.all.isEmpty)
    }

    // MARK: Chains

    @Test func sequenceOperatorsCompose() throws {
        let result = Promise.value(["4", "x", "1", "3"])
            .compactMapValues { Int($0) }
            .mapValues { $0 * 2 }
            .filterValues { $0 > 2 }
            .sortedValues()
            .lastValue
        #expect(try value(of: result) == 8)
    }

    // MARK: Guarantee variants keep a Guarantee

    @Test func guaranteeMapValuesGivesAGuarantee() throws {
        let mapped = Guarantee.value([1, 2]).mapValues { $0 + 1 }
        let typed: Guarantee<[Int]> = mapped
        #expect(try value(of: typed) == [2, 3])
    }

    @Test func guaranteeFlatMapValuesGivesAGuarantee() throws {
        let flattened = Guarantee.value([1, 2]).flatMapValues { [$0, $0 * 10] }
        let typed: Guarantee<[Int]> = flattened
        #expect(try value(of: typed) == [1, 10, 2, 20])
    }

    @Test func guaranteeCompactMapValuesGivesAGuarantee() throws {
        let parsed = Guarantee.value(["1", "?", "2"]).compactMapValues { Int($0) }
        let typed: Guarantee<[Int]> = parsed
        #expect(try value(of: typed) == [1, 2])
    }

    @Test func guaranteeThenMapGivesAGuarantee() throws {
        let (slow, resolve) = Guarantee<Int>.pending()
        let gathered = Guarantee.value([1, 2, 3]).thenMap(on: nil) { element in
            element == 2 ? slow : Guarantee.value(element)
        }
        let typed: Guarantee<[Int]> = gathered
        #expect(typed.isPending)
        resolve(20)
        #expect(try value(of: typed) == [1, 20, 3])
    }

    @Test func guaranteeThenMapOfAnEmptySequenceIsEmpty() throws {
        let gathered: Guarantee<[Int]> = Guarantee.value([Int]()).thenMap { Guarantee.value($0) }
        #expect(try value(of: gathered) == [])
    }

    @Test func guaranteeThenFlatMapGivesAGuarantee() throws {
        let flattened = Guarantee.value(["ab", "c"]).thenFlatMap { Guarantee.value(Array($0)) }
        let typed: Guarantee<[Character]> = flattened
        #expect(try value(of: typed) == ["a", "b", "c"])
    }

    @Test func guaranteeFilterValuesGivesAGuarantee() throws {
        let filtered = Guarantee.value([1, 2, 3, 4]).filterValues { $0 > 2 }
        let typed: Guarantee<[Int]> = filtered
        #expect(try value(of: typed) == [3, 4])
    }

    @Test func guaranteeSortedValuesGivesAGuarantee() throws {
        let sorted = Guarantee.value([2, 3, 1]).sortedValues()
        let typed: Guarantee<[Int]> = sorted
        #expect(try value(of: typed) == [1, 2, 3])
    }

    @Test func guaranteeSortedValuesByAComparatorGivesAGuarantee() throws {
        let sorted = Guarantee.value([5, 2, 3, 4, 1]).sortedValues(>)
        let typed: Guarantee<[Int]> = sorted
        #expect(try value(of: typed) == [5, 4, 3, 2, 1])
    }

    @Test func guaranteeThenMapWithPromisesGivesAPromise() throws {
        let gathered: Promise<[Int]> = Guarantee.value([1, 2]).thenMap { element -> Promise<Int> in
            element == 2 ? Promise(error: TestError.boom) : .value(element)
        }
        #expect(try error(of: gathered) as? TestError == .boom)
    }

    @Test func guaranteeMapValuesWithAThrowingTransformGivesAPromise() throws {
        let mapped: Promise<[Int]> = Guarantee.value([1, 2]).mapValues { (_: Int) throws -> Int in
            throw TestError.other
        }
        #expect(try error(of: mapped) as? TestError == .other)
    }

    @Test func guaranteeFirstAndLastValueGivePromises() throws {
        let first: Promise<Int> = Guarantee.value([5, 6, 7]).firstValue
        let firstEven: Promise<Int> = Guarantee.value([5, 6, 7]).firstValue { $0.isMultiple(of: 2) }
        let last: Promise<Int> = Guarantee.value([5, 6, 7]).lastValue
        #expect(try value(of: first) == 5)
        #expect(try value(of: firstEven) == 6)
        #expect(try value(of: last) == 7)
        #expect(isPromiseError(try error(of: Guarantee.value([Int]()).firstValue), .emptySequence))
        #expect(
            isPromiseError(
                try error(of: Guarantee.value([5, 7]).firstValue { $0.isMultiple(of: 2) }), .emptySequence))
        #expect(isPromiseError(try error(of: Guarantee.value([Int]()).lastValue), .emptySequence))
    }
}
