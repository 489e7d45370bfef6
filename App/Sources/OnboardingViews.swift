import AppModel
import SwiftUI

/// The first-launch introduction: one page at a time.
@MainActor
struct OnboardingView: View {
    let model: OnboardingModel

    var body: some View {
        VStack(spacing: 24) {
            Spacer()
            Text(model.page.title).font(.largeTitle.bold()).multilineTextAlignment(.center)
            Text(model.page.text).font(.title3).multilineTextAlignment(.center)
            Spacer()
            HStack(spacing: 8) {
                ForEach(model.pages) { page in
                    Circle().frame(width: 8, height: 8).opacity(page.id == model.index ? 1 : 0.3)
                }
            }
            Button(model.buttonTitle) { model.advance() }
                .buttonStyle(.borderedProminent)
                .font(.title3)
        }
        .padding(32)
    }
}

/// The consent step after a scan: the parent's decision on research use.
@MainActor
struct ConsentView: View {
    let model: ConsentModel

    var body: some View {
        VStack(spacing: 24) {
            Text(model.title).font(.largeTitle.bold())
            Text(model.question).font(.title3).multilineTextAlignment(.center)
            if let failure = model.failure { Text(failure).foregroundStyle(.red) }
            Button(model.agreeTitle) { model.decide(researchUse: true) }
                .buttonStyle(.borderedProminent)
            Button(model.declineTitle) { model.decide(researchUse: false) }
                .buttonStyle(.bordered)
        }
        .font(.title3)
        .padding(32)
    }
}
