import Testing

@testable import magpie_server

/// thumbor.conf as Python reads it (the values below are what `python3 -c 'exec(open(f).read())'`
/// gives), and what needs Python refused with its line and reason.
@Suite struct ThumborConfFileTests {
    typealias V = ThumborConfFile.Value

    func values(_ text: String) throws -> [String: V] {
        ThumborConfFile.values(try ThumborConfFile.parse(text)).mapValues(\.value)
    }

    func refusal(_ text: String) -> ThumborConfFile.Failure? {
        do {
            _ = try ThumborConfFile.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func theValuesOfAConfigurationAsPythonHasThem() throws {
        let v = try values(
            """
            # -*- coding: utf-8 -*-
            SECURITY_KEY = 'MY_SECURE_KEY'
            ALLOW_UNSAFE_URL = False
            QUALITY = 85  # a comment
            MAX_PIXELS = 75e6
            MAX_AGE = 24 * 60 * 60
            STORAGE_EXPIRATION_SECONDS = 60 * 60 * 24 * 30
            RESULT_STORAGE = None
            HEALTHCHECK_ROUTE = r'/healthcheck/?'
            META_CALLBACK_NAME = "cb"
            ALLOWED_SOURCES = [
                's.glbimg.com',   # the first
                "images\\.example\\.com",
            ]
            DETECTORS = []
            TUPLE = ('a', 'b',)
            ONE = ('a')
            LOG = {'version': 1, "disable_existing_loggers": False}
            """)
        #expect(v["SECURITY_KEY"] == .string("MY_SECURE_KEY"))
        #expect(v["ALLOW_UNSAFE_URL"] == .bool(false))
        #expect(v["QUALITY"] == .int(85))
        #expect(v["MAX_PIXELS"] == .float(75e6))
        #expect(v["MAX_AGE"] == .int(86400))
        #expect(v["STORAGE_EXPIRATION_SECONDS"] == .int(2_592_000))
        #expect(v["RESULT_STORAGE"] == V.none)
        #expect(v["HEALTHCHECK_ROUTE"] == .string("/healthcheck/?"))
        #expect(v["META_CALLBACK_NAME"] == .string("cb"))
        #expect(v["ALLOWED_SOURCES"] == .list([.string("s.glbimg.com"), .string("images\\.example\\.com")]))
        #expect(v["DETECTORS"] == .list([]))
        #expect(v["TUPLE"] == .list([.string("a"), .string("b")]))
        #expect(v["ONE"] == .string("a"), "parentheses alone make no tuple")
        #expect(
            v["LOG"]
                == .dict([
                    .init(key: .string("version"), value: .int(1)),
                    .init(key: .string("disable_existing_loggers"), value: .bool(false)),
                ]))
    }

    @Test func arithmeticIsPythons() throws {
        let v = try values(
            """
            A = 7 // 2; B = -7 // 2; C = -7 % 3; D = 7 % -3; E = 7 / 2; F = 2 ** 10; G = -2 ** 2
            H = 1 + 2 * 3 - 4; I = (1 + 2) * 3; J = 2 ** -1; K = True + 1; L = 1.5 * 2; M = 0x10 + 0o10 + 0b10
            N = 'ab' 'cd'; O = 'ab' + "cd"; P = [1] + [2]; Q = 'ab' * 2; R = 1_000_000; S = .5; T = 1e3
            """)
        let expected: [String: V] = [
            "A": .int(3), "B": .int(-4), "C": .int(2), "D": .int(-2), "E": .float(3.5), "F": .int(1024), "G": .int(-4),
            "H": .int(3), "I": .int(9), "J": .float(0.5), "K": .int(2), "L": .float(3), "M": .int(26),
            "N": .string("abcd"), "O": .string("abcd"), "P": .list([.int(1), .int(2)]), "Q": .string("abab"),
            "R": .int(1_000_000), "S": .float(0.5), "T": .float(1000),
        ]
        for (name, value) in expected { #expect(v[name] == value, "\(name)") }
    }

    @Test func stringsAndTheirEscapes() throws {
        let v = try values(
            #"""
            A = 'it\'s'
            B = "tab\there\nline"
            C = r'\d+\.jpg'
            D = '\x41\u00e9\101'
            E = """two
            lines"""
            F = '\q'
            G = 'joined \
            here'
            H = u'unicode é'
            """#)
        #expect(v["A"] == .string("it's"))
        #expect(v["B"] == .string("tab\there\nline"))
        #expect(v["C"] == .string(#"\d+\.jpg"#))
        #expect(v["D"] == .string("AéA"))
        #expect(v["E"] == .string("two\nlines"))
        #expect(v["F"] == .string(#"\q"#), "an unknown escape keeps its backslash")
        #expect(v["G"] == .string("joined here"))
        #expect(v["H"] == .string("unicode é"))
    }

    @Test func namesAssignedAboveAndThumborsOwnSampleBeginning() throws {
        let v = try values(
            """
            from os.path import expanduser, join
            home = expanduser("~")
            ROOT = '/srv/images'
            FILE_LOADER_ROOT_PATH = ROOT + '/originals'
            FILE_STORAGE_ROOT_PATH = join(home, "thumbor", "storage")
            ABSOLUTE = join('/a', '/b', 'c')
            QUALITY = 80
            QUALITY = 90
            """)
        #expect(v["FILE_LOADER_ROOT_PATH"] == .string("/srv/images/originals"))
        guard case .string(let storage) = v["FILE_STORAGE_ROOT_PATH"] else {
            Issue.record("no storage path")
            return
        }
        #expect(storage.hasSuffix("/thumbor/storage") && !storage.hasPrefix("~"))
        #expect(v["ABSOLUTE"] == .string("/b/c"), "join starts again at an absolute part")
        #expect(v["QUALITY"] == .int(90), "the last assignment wins")
    }

    @Test func whatNeedsPythonIsRefusedWithItsLine() {
        let cases: [(String, Int, String)] = [
            ("QUALITY = 80\nimport os\n", 2, "assignments"),
            ("A = 1\nB = os.environ['X']\n", 2, "not assigned above"),
            ("from os.path import expanduser\nA = expanduser('~').upper()\n", 2, "attribute"),
            ("A = int('5')\n", 1, "not assigned above"),
            ("A = [1,\n 2\n", 3, "never closed"),
            ("A = 'open\n", 1, "never closed"),
            ("A = f'{1}'\n", 1, "f'…'"),
            ("A = b'x'\n", 1, "b'…'"),
            ("A = 1 / 0\n", 1, "division by zero"),
            ("A = 2 ** 80\n", 1, "64 bits"),
            ("A = 'x' * 100000000\n", 1, "too large"),
            ("A = 1\n  B = 2\n", 2, "indented"),
            ("A = 'a' - 'b'\n", 1, "Python refuses it"),
            ("A = 1 if True else 2\n", 1, "after the value"),
            ("def f():\n    pass\n", 1, "assignments"),
            ("A = 2j\n", 1, "complex"),
            ("A == 1\n", 1, "followed by"),
            ("from os import path\n", 1, "import"),
        ]
        for (text, line, reason) in cases {
            let failure = refusal(text)
            #expect(
                failure?.line == line, "\(text.debugDescription): \(failure.map(String.init(describing:)) ?? "read")")
            #expect(failure?.reason.contains(reason) == true, "\(text.debugDescription): \(failure?.reason ?? "read")")
        }
    }
}
