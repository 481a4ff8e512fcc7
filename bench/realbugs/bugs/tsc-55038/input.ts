enum Color {
  Color,
  Red,
}
export { Color };
