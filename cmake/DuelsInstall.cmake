# Installing and packaging: `cmake --install build` (or `--prefix DIR`) puts the program, its
# assets, a .desktop entry and an icon in place; `cd build && cpack -G DEB` makes a .deb whose
# runtime dependencies dpkg-shlibdeps works out from the binary. The installed program finds its
# assets at ../share/duels-companion beside its own bin/ folder (app/main.cpp: assets_dir()).
include(GNUInstallDirs)

if(TARGET duels_app)
  install(TARGETS duels_app RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/duels-companion)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/duels-companion.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/duels-companion.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/duels-companion.png
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/128x128/apps)

set(CPACK_PACKAGE_NAME duels-companion)
set(CPACK_PACKAGE_VENDOR "Duels Companion")
set(CPACK_PACKAGE_CONTACT "Duels Companion maintainers <duels-companion@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Table companion for the Shadowrun Duels action-figure game")
set(CPACK_PACKAGE_DESCRIPTION
    "Webcam calibration and base tracking, exact table geometry, the full Duels rules with exact "
    "dice odds, an append-only match journal, an overlay window, and helpers for three Shadowrun "
    "card games.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY duels-companion)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Loaded at run time, so dpkg-shlibdeps cannot see them: the window's font.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
include(CPack)
