import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

/// The generated words in each language: the same phrase for a maneuver, its words from the
/// language's table. Expected words are written out by hand from the tables' conventions.
@Suite("Instructions in each language")
struct InstructionLanguagesTests {
    typealias F = TurnFixtures

    static func words(_ maneuver: Maneuver) -> [BookLanguage: String] {
        Dictionary(uniqueKeysWithValues: BookLanguage.allCases.map { ($0, Instructions(language: $0).text(for: maneuver)) })
    }

    @Test("a roundabout: the exit as the language writes its ordinal, the road after it")
    func roundabout() throws {
        let third = try #require(F.detect(F.roundabout()).first)
        #expect(Self.words(third) == [
            .en: "Roundabout, 3rd exit onto CG-2",
            .fr: "Rond-point, 3e sortie sur CG-2",
            .es: "Rotonda, 3.ª salida por CG-2",
            .pt: "Rotunda, 3.ª saída para CG-2",
            .it: "Rotatoria, 3ª uscita su CG-2",
        ])
        var ring = F.roundabout()
        ring[1].spokes = [Spoke(bearing: 225, role: .entry, isRoundabout: true),
                          Spoke(bearing: 315, role: .side, isRoundabout: true),
                          Spoke(bearing: 90, role: .exit)]
        let first = try #require(F.detect(Array(ring[0...1])).first)
        #expect(Self.words(first) == [
            .en: "Roundabout, 1st exit", .fr: "Rond-point, 1re sortie", .es: "Rotonda, 1.ª salida",
            .pt: "Rotunda, 1.ª saída", .it: "Rotatoria, 1ª uscita",
        ])
    }

    @Test("a fork, the end of a road, two junctions in one row")
    func forkEndOfRoadAndMerged() throws {
        let fork = try #require(F.detect([F.junction(100, heading: 0, exit: 335, sides: [25])]).first)
        #expect(Self.words(fork) == [
            .en: "Keep left at fork", .fr: "Bifurcation, prendre à gauche", .es: "Bifurcación, tomar a la izquierda",
            .pt: "Bifurcação, manter à esquerda", .it: "Bivio, tenere la sinistra",
        ])
        let end = try #require(F.detect([F.junction(100, heading: 0, exit: 270, sides: [90], exitRef: "N-260")]).first)
        #expect(Self.words(end) == [
            .en: "End of road, turn left onto N-260", .fr: "Au bout de la route, tourner à gauche sur N-260",
            .es: "Al final del camino, girar a la izquierda por N-260",
            .pt: "No fim da estrada, virar à esquerda para N-260", .it: "A fine strada, svoltare a sinistra su N-260",
        ])
        let merged = try #require(F.detect([F.junction(100, heading: 0, exit: 300, sides: [0]),
                                            F.junction(108, heading: 300, exit: 250, sides: [300])]).first)
        #expect(Self.words(merged) == [
            .en: "Turn left, then bear left", .fr: "Tourner à gauche, puis légèrement à gauche",
            .es: "Girar a la izquierda, luego ligeramente a la izquierda",
            .pt: "Virar à esquerda, depois ligeiramente à esquerda", .it: "Svoltare a sinistra, poi leggermente a sinistra",
        ])
    }

    @Test("straight on, in words organisers use")
    func straightOn() {
        let straight = Instructions.Wording(phrase: .straightOn)
        let crossroads = Instructions.Wording(phrase: .straightOnAtCrossroads)
        #expect(BookLanguage.allCases.map { Instructions(language: $0).text(straight) }
                == ["Straight on", "Tout droit", "Recto", "Em frente", "Dritto"])
        #expect(BookLanguage.allCases.map { Instructions(language: $0).text(crossroads) }
                == ["Straight on at crossroads", "Carrefour, tout droit", "Cruce, recto", "Cruzamento, em frente",
                    "Incrocio, dritto"])
    }

    @Test("English is the table it always was")
    func englishUnchanged() {
        #expect(Instructions.english.phrases == Instructions(language: nil).phrases)
        #expect(Instructions.english.phrases[.roundaboutExit] == "Roundabout, {ordinal} exit")
        #expect(Instructions.english.phrases[.onto] == " onto {road}")
        for phrase in Instructions.Phrase.allCases {
            #expect(Instructions.english.phrases[phrase] == Phrasebook.english.table[phrase.key], "\(phrase)")
        }
    }

    @Test("every wording, in every language, reads back as itself", arguments: BookLanguage.allCases)
    func readBack(language: BookLanguage) {
        let instructions = Instructions(language: language)
        let heads = Instructions.Phrase.allCases.filter { $0 != .onto && !Instructions.Phrase.thenPhrases.contains($0) }
        for phrase in heads {
            for then in [nil] + Instructions.Phrase.thenPhrases {
                for road in [nil, "CG-1", "Carrer de Sant Jordi", "Route de la Gare, then"] {
                    let wording = Instructions.Wording(phrase: phrase, then: then, exitNumber: 2, road: road)
                    let text = instructions.text(wording)
                    #expect(instructions.wording(of: text, exitNumber: 2) == wording, "\(language): \(text)")
                }
            }
        }
    }

    @Test("generated words are reworded into another language; words no phrase makes are not")
    func reword() {
        let french = Instructions(language: .fr), english = Instructions.english
        #expect(french.reword("Roundabout, 3rd exit onto N22", exitNumber: 3, from: english) == "Rond-point, 3e sortie sur N22")
        #expect(english.reword("Bifurcation, prendre à droite sur CG-1", exitNumber: nil, from: french)
                == "Keep right at fork onto CG-1")
        #expect(Instructions(language: .it).reword("Keep straight on", exitNumber: nil, from: english) == "Proseguire dritto")
        // The exit the note records must be the one its words say.
        #expect(french.reword("Roundabout, 3rd exit onto N22", exitNumber: 2, from: english) == nil)
        for words in ["Turn left at the chapel", "turn left", "Turn left onto ", "Left at the fork", ""] {
            #expect(french.reword(words, exitNumber: nil, from: english) == nil, "\(words)")
        }
    }
}
