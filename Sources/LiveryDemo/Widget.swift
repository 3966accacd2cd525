import CGtk

/// A `GtkWidget *`: what the `gtk_widget_*` calls take and most constructors return.
typealias Widget = UnsafeMutablePointer<GtkWidget>

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The widget as an instance of one of its classes, for the `gtk_<class>_*` calls of a class
    /// GTK declares as a struct (`GtkWindow`, `GtkBox`); GTK's checking casts (`GTK_WINDOW()`)
    /// are C macros.
    ///
    /// Safety: the widget must be an instance of `T`'s class or a subclass; Swift never reads
    /// through the result, it only hands it back to GTK.
    func `as`<T>(_: T.Type) -> UnsafeMutablePointer<T> { UnsafeMutablePointer<T>(OpaquePointer(self)) }

    /// The widget as an instance of a class GTK declares opaque (`GtkHeaderBar`, `GtkSwitch`),
    /// under the same rule as `as(_:)`.
    var opaque: OpaquePointer { OpaquePointer(self) }

    /// The widget's children, first to last.
    var children: [Widget] {
        var out: [Widget] = []
        var child = gtk_widget_get_first_child(self)
        while let c = child {
            out.append(c)
            child = gtk_widget_get_next_sibling(c)
        }
        return out
    }

    /// Sets the size the widget asks for, in pixels (GTK's logical pixels: points of the canvas).
    func setSize(_ width: Double, _ height: Double) {
        gtk_widget_set_size_request(self, Int32(width.rounded()), Int32(height.rounded()))
    }
}
