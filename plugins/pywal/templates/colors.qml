import QtQuick
QtObject {
    readonly property color background: "{background}"
    readonly property color foreground: "{foreground}"
    readonly property color cursor: "{cursor}"
    readonly property color color0: "{color0}"
    readonly property color color0Light: Qt.lighter(color0, 1.5)
    readonly property color color0Dark: Qt.darker(color0, 1.5)
    readonly property color color1: "{color1}"
    readonly property color color1Light: Qt.lighter(color1, 1.5)
    readonly property color color1Dark: Qt.darker(color1, 1.5)
    readonly property color color2: "{color2}"
    readonly property color color2Light: Qt.lighter(color2, 1.5)
    readonly property color color2Dark: Qt.darker(color2, 1.5)
    readonly property color color3: "{color3}"
    readonly property color color3Light: Qt.lighter(color3, 1.5)
    readonly property color color3Dark: Qt.darker(color3, 1.5)
    readonly property color color4: "{color4}"
    readonly property color color4Light: Qt.lighter(color4, 1.5)
    readonly property color color4Dark: Qt.darker(color4, 1.5)
    readonly property color color5: "{color5}"
    readonly property color color5Light: Qt.lighter(color5, 1.5)
    readonly property color color5Dark: Qt.darker(color5, 1.5)
    readonly property color color6: "{color6}"
    readonly property color color6Light: Qt.lighter(color6, 1.5)
    readonly property color color6Dark: Qt.darker(color6, 1.5)
    readonly property color color7: "{color7}"
    readonly property color color7Light: Qt.lighter(color7, 1.5)
    readonly property color color7Dark: Qt.darker(color7, 1.5)
    readonly property color color8: "{color8}"
    readonly property color color8Light: Qt.lighter(color8, 1.5)
    readonly property color color8Dark: Qt.darker(color8, 1.5)
    readonly property color color9: "{color9}"
    readonly property color color9Light: Qt.lighter(color9, 1.5)
    readonly property color color9Dark: Qt.darker(color9, 1.5)
    readonly property color color10: "{color10}"
    readonly property color color10Light: Qt.lighter(color10, 1.5)
    readonly property color color10Dark: Qt.darker(color10, 1.5)
    readonly property color color11: "{color11}"
    readonly property color color11Light: Qt.lighter(color11, 1.5)
    readonly property color color11Dark: Qt.darker(color11, 1.5)
    readonly property color color12: "{color12}"
    readonly property color color12Light: Qt.lighter(color12, 1.5)
    readonly property color color12Dark: Qt.darker(color12, 1.5)
    readonly property color color13: "{color13}"
    readonly property color color13Light: Qt.lighter(color13, 1.5)
    readonly property color color13Dark: Qt.darker(color13, 1.5)
    readonly property color color14: "{color14}"
    readonly property color color14Light: Qt.lighter(color14, 1.5)
    readonly property color color14Dark: Qt.darker(color14, 1.5)
    readonly property color color15: "{color15}"
    readonly property color color15Light: Qt.lighter(color15, 1.5)
    readonly property color color15Dark: Qt.darker(color15, 1.5)
}
