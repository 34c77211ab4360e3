import Layout
import CCairo
import CPango
// Cairo/Pango drawing: see the Render helper branch.
