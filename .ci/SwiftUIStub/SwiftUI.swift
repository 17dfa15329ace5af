// A stand-in for the parts of SwiftUI that Cadence's `#if canImport(SwiftUI)` code uses, so that CI
// on Linux (which has no SwiftUI) type-checks that code: `.ci/swiftui-check` builds this file as a
// module named `SwiftUI`, then type-checks CadenceMarkdown and CadenceUI against it.
//
// It checks our side: that the views still match the view models, the markdown types and the
// renderers they use, which change on Linux where the views are never compiled. The declarations here
// follow Apple's SwiftUI signatures as documented, reduced to what the views call (a few are looser:
// a toolbar takes views, not toolbar content); nothing here runs. When a view starts using more of
// SwiftUI, add the declaration here with Apple's signature.
@_exported import Foundation

// MARK: Views and builders

@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// A view with no body of its own: every primitive below.
@MainActor @preconcurrency
public protocol PrimitiveView: View where Body == Never {}
extension PrimitiveView {
    public var body: Never { fatalError() }
}

public struct TupleView<T>: PrimitiveView {
    public init(_ value: T) {}
}
public struct EmptyView: PrimitiveView {
    public init() {}
}
public struct AnyView: PrimitiveView {
    public init<V: View>(_ view: V) {}
}
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: PrimitiveView {}
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { _ConditionalContent() }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { _ConditionalContent() }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

/// What every modifier below returns.
public struct ModifiedContent<Content, Modifier>: PrimitiveView {
    public init(content: Content, modifier: Modifier) {}
}

@MainActor @preconcurrency
public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder func body(content: Content) -> Body
}
public struct _ViewModifier_Content<Modifier: ViewModifier>: PrimitiveView {}

// MARK: State

@propertyWrapper
public struct State<Value>: DynamicProperty {
    public init(wrappedValue: Value) {}
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { fatalError() }
}
extension State: Sendable where Value: Sendable {}

@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {}
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError()
    }
}

public protocol DynamicProperty {}

// MARK: Primitive views

public struct Text: PrimitiveView, Equatable {
    public init<S: StringProtocol>(_ content: S) {}
    public init(_ attributedContent: AttributedString) {}
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatOutput == String {}
}

public struct Label<Title: View, Icon: View>: PrimitiveView {
    public init<S: StringProtocol>(_ title: S, systemImage name: String) where Title == Text, Icon == Image {}
}

public struct Image: PrimitiveView {
    public init(systemName: String) {}
}

public struct ButtonRole: Equatable, Sendable {
    public static let destructive = ButtonRole()
    public static let cancel = ButtonRole()
}

public struct Button<Label: View>: PrimitiveView {
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public init(
        role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label
    ) {}
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) where Label == Text {}
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void)
    where Label == Text {}
}

public struct ShareLink<Label: View>: PrimitiveView {
    public init(item: String, @ViewBuilder label: () -> Label) {}
}

public struct Link<Label: View>: PrimitiveView {
    public init(destination: URL, @ViewBuilder label: () -> Label) {}
}

public struct Menu<Content: View, Label: View>: PrimitiveView {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {}
}

public struct TextField<Label: View>: PrimitiveView {
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) where Label == Text {}
}

public struct DisclosureGroup<Label: View, Content: View>: PrimitiveView {
    public init<S: StringProtocol>(_ label: S, @ViewBuilder content: @escaping () -> Content) where Label == Text {}
}

public struct ProgressView: PrimitiveView {
    public init() {}
}

public struct Spacer: PrimitiveView {
    public init(minLength: CGFloat? = nil) {}
}

public struct Group<Content: View>: PrimitiveView {
    public init(@ViewBuilder content: () -> Content) {}
}

public struct VStack<Content: View>: PrimitiveView {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}
public struct LazyVStack<Content: View>: PrimitiveView {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}
public struct HStack<Content: View>: PrimitiveView {
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}
public struct ZStack<Content: View>: PrimitiveView {
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {}
}

public struct List<Content: View>: PrimitiveView {
    public init(@ViewBuilder content: () -> Content) {}
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: PrimitiveView {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content)
    where Data.Element: Identifiable, ID == Data.Element.ID {}
    public func onDelete(perform action: ((IndexSet) -> Void)?) -> some View { self }
}

public struct ScrollView<Content: View>: PrimitiveView {
    public init(@ViewBuilder content: () -> Content) {}
}

public struct ScrollViewProxy {
    public func scrollTo<ID: Hashable>(_ id: ID, anchor: UnitPoint? = nil) {}
}
public struct ScrollViewReader<Content: View>: PrimitiveView {
    public init(@ViewBuilder content: @escaping (ScrollViewProxy) -> Content) {}
}

public struct GeometryProxy {
    public var size: CGSize { fatalError() }
    public func frame(in coordinateSpace: some CoordinateSpaceProtocol) -> CGRect { fatalError() }
}
public struct GeometryReader<Content: View>: PrimitiveView {
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {}
}

public struct ToolbarItemPlacement: Sendable {
    public static let primaryAction = ToolbarItemPlacement()
}
public struct ToolbarItem<Content: View>: PrimitiveView {
    public init(placement: ToolbarItemPlacement, @ViewBuilder content: () -> Content) {}
}

// MARK: Layout values

public struct HorizontalAlignment: Equatable, Sendable {
    public static let leading = HorizontalAlignment()
    public static let center = HorizontalAlignment()
    public static let trailing = HorizontalAlignment()
}
public struct VerticalAlignment: Equatable, Sendable {
    public static let top = VerticalAlignment()
    public static let center = VerticalAlignment()
    public static let bottom = VerticalAlignment()
}
public struct Alignment: Equatable, Sendable {
    public static let leading = Alignment()
    public static let center = Alignment()
    public static let top = Alignment()
    public static let bottom = Alignment()
}
public struct UnitPoint: Hashable, Sendable {
    public static let top = UnitPoint()
    public static let bottom = UnitPoint()
}
public enum Edge: Int8, Hashable, Sendable {
    case top, leading, bottom, trailing
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public init(_ edge: Edge) { self.init(rawValue: 1 << edge.rawValue) }
        public static let top = Set(.top)
        public static let bottom = Set(.bottom)
        public static let leading = Set(.leading)
        public static let trailing = Set(.trailing)
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
        public static let all: Set = [.horizontal, .vertical]
    }
}
public enum TextAlignment: Hashable, Sendable { case leading, center, trailing }

public protocol CoordinateSpaceProtocol {}
public struct NamedCoordinateSpace: CoordinateSpaceProtocol, Equatable {
    public static func named(_ name: some Hashable) -> NamedCoordinateSpace { NamedCoordinateSpace() }
}

// MARK: Styles and shapes

public protocol ShapeStyle: Sendable {}
public protocol Shape: View, Sendable {}

public struct Color: ShapeStyle, PrimitiveView, Hashable {
    public static let clear = Color()
    public static let secondary = Color()
    public static let accentColor = Color()
    public static let orange = Color()
    public static let red = Color()
    public func opacity(_ opacity: Double) -> Color { self }
}
extension ShapeStyle where Self == Color {
    public static var orange: Color { .orange }
    public static var red: Color { .red }
}
public struct HierarchicalShapeStyle: ShapeStyle {
    public static let secondary = HierarchicalShapeStyle()
}
extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var secondary: HierarchicalShapeStyle { .secondary }
}
public struct Material: ShapeStyle {
    public static let thinMaterial = Material()
}
extension ShapeStyle where Self == Material {
    public static var thinMaterial: Material { .thinMaterial }
}

public enum RoundedCornerStyle: Sendable { case circular, continuous }
public struct RoundedRectangle: Shape, PrimitiveView {
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {}
}
public struct Capsule: Shape, PrimitiveView {
    public init() {}
}
public struct Rectangle: Shape, PrimitiveView {
    public init() {}
}

public struct Font: Hashable, Sendable {
    public static let title = Font()
    public static let title2 = Font()
    public static let title3 = Font()
    public static let headline = Font()
    public static let footnote = Font()
    public static let caption = Font()
    public static let caption2 = Font()
    public struct Weight: Hashable, Sendable {
        public static let regular = Weight()
        public static let semibold = Weight()
    }
    public func weight(_ weight: Weight) -> Font { self }
}

public protocol LabelStyle {}
public struct IconOnlyLabelStyle: LabelStyle {}
extension LabelStyle where Self == IconOnlyLabelStyle {
    public static var iconOnly: IconOnlyLabelStyle { IconOnlyLabelStyle() }
}
public protocol PrimitiveButtonStyle {}
public struct PlainButtonStyle: PrimitiveButtonStyle {}
extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    public static var plain: PlainButtonStyle { PlainButtonStyle() }
}
public protocol TextSelectability {}
public struct EnabledTextSelectability: TextSelectability {}
extension TextSelectability where Self == EnabledTextSelectability {
    public static var enabled: EnabledTextSelectability { EnabledTextSelectability() }
}

public struct Animation: Equatable, Sendable {
    public static func easeOut(duration: Double) -> Animation { Animation() }
}
@MainActor
public func withAnimation<Result>(_ animation: Animation? = .easeOut(duration: 0.35), _ body: () throws -> Result)
    rethrows -> Result
{ try body() }

public struct AnyTransition: Sendable {
    public static let opacity = AnyTransition()
    public static func move(edge: Edge) -> AnyTransition { AnyTransition() }
    public func combined(with other: AnyTransition) -> AnyTransition { self }
}

public protocol Gesture {}
public struct DragGesture: Gesture {
    public struct Value {}
    public init() {}
    public func onChanged(_ action: @escaping (Value) -> Void) -> DragGesture { self }
}

// MARK: Modifiers

extension View {
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent(content: self, modifier: modifier) }
    public func font(_ font: Font?) -> some View { self }
    public func fontWeight(_ weight: Font.Weight?) -> some View { self }
    public func monospacedDigit() -> some View { self }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { self }
    public func lineLimit(_ number: Int?) -> some View { self }
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { self }
    public func frame(
        minWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> some View { self }
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        self
    }
    public func fixedSize() -> some View { self }
    public func fixedSize(horizontal: Bool, vertical: Bool) -> some View { self }
    public func padding(_ length: CGFloat? = nil) -> some View { self }
    public func padding(_ edges: Edge.Set, _ length: CGFloat? = nil) -> some View { self }
    public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T) -> some View { self }
    public func shadow(radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    public func labelStyle<S: LabelStyle>(_ style: S) -> some View { self }
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { self }
    public func textSelection<S: TextSelectability>(_ selectability: S) -> some View { self }
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View { self }
    public func contentShape<S: Shape>(_ shape: S) -> some View { self }
    public func id<ID: Hashable>(_ id: ID) -> some View { self }
    public func transition(_ t: AnyTransition) -> some View { self }
    public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View { self }
    public func coordinateSpace(_ name: NamedCoordinateSpace) -> some View { self }
    public func simultaneousGesture<T: Gesture>(_ gesture: T) -> some View { self }
    public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some View { self }
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { self }
    // Apple's page shows `sending @escaping @isolated(any)`; its interface also marks the closure
    // `@_inheritActorContext`, as `Task.init` does (the page leaves underscored attributes out).
    public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { self }
    public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View { self }
    public func alert<A: View, S: StringProtocol>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A
    ) -> some View { self }
    public func listRowBackground<V: View>(_ view: V?) -> some View { self }
    public func contextMenu<MenuItems: View>(@ViewBuilder menuItems: () -> MenuItems) -> some View { self }
}

extension View where Self: Equatable {
    public func equatable() -> some View { self }
}

// MARK: AttributedString

extension AttributeScopes {
    /// SwiftUI's attributes (`text.swiftUI.font`).
    public var swiftUI: SwiftUIAttributes.Type { SwiftUIAttributes.self }

    public struct SwiftUIAttributes: AttributeScope {
        public let font: FontAttribute
        public let baselineOffset: BaselineOffsetAttribute
        public let foundation: FoundationAttributes

        public enum FontAttribute: AttributedStringKey {
            public typealias Value = Font
            public static let name = "SwiftUI.Font"
        }
        public enum BaselineOffsetAttribute: AttributedStringKey {
            public typealias Value = CGFloat
            public static let name = "SwiftUI.BaselineOffset"
        }
    }
}

/// Foundation's inline presentation intent, which Foundation on Linux does not have.
public struct InlinePresentationIntent: OptionSet, Hashable, Codable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let emphasized = Self(rawValue: 1 << 0)
    public static let stronglyEmphasized = Self(rawValue: 1 << 1)
    public static let code = Self(rawValue: 1 << 2)
    public static let strikethrough = Self(rawValue: 1 << 5)
}

public struct InlinePresentationIntentAttribute: CodableAttributedStringKey {
    public typealias Value = InlinePresentationIntent
    public static let name = "NSInlinePresentationIntent"
    public init() {}
}

extension AttributeScopes.FoundationAttributes {
    public var inlinePresentationIntent: InlinePresentationIntentAttribute { .init() }
}
