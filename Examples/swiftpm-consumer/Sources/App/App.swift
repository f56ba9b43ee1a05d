/// The app whose popups `Popups/` describes.
public enum App {}
