# The link graph that tests/layering/check_layering.py checks (`links`).
#
# gpubarrier_layering_link_graph(<output>) writes, once every directory is configured, one line per
# target: `<target>\t<TYPE>\t<LINK_LIBRARIES>\t<INTERFACE_LINK_LIBRARIES>`. The values are the
# targets' properties at generate time, generator expressions left as written: the checker counts
# every target an item names, whatever its condition, so the layering holds for every option.
# Imported and alias targets that the project's targets name are written too (an alias as its
# aliased target), so that no link hides behind them.

function(_gb_layering_targets dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _gb_layering_targets("${sub}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(_gb_layering_write output)
  _gb_layering_targets("${CMAKE_SOURCE_DIR}" queue)
  set(seen "")
  set(content "")
  while(queue)
    list(POP_FRONT queue t)
    if(t IN_LIST seen OR NOT TARGET "${t}")
      continue()
    endif()
    list(APPEND seen "${t}")
    get_target_property(aliased "${t}" ALIASED_TARGET)
    if(aliased)
      string(APPEND content "${t}\tALIAS\t${aliased}\t\n")
      list(APPEND queue "${aliased}")
      continue()
    endif()
    get_target_property(type "${t}" TYPE)
    if(type STREQUAL "UTILITY")
      continue()
    endif()
    get_target_property(imported "${t}" IMPORTED)
    set(raw "")
    set(link "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY" AND NOT imported)
      get_target_property(raw "${t}" LINK_LIBRARIES)
      set(link "$<TARGET_PROPERTY:${t},LINK_LIBRARIES>")
    endif()
    get_target_property(iface "${t}" INTERFACE_LINK_LIBRARIES)
    string(APPEND content
      "${t}\t${type}\t${link}\t$<TARGET_PROPERTY:${t},INTERFACE_LINK_LIBRARIES>\n")
    # Imported and alias targets are in no directory's BUILDSYSTEM_TARGETS: follow the names.
    string(REGEX MATCHALL "[A-Za-z0-9_.+-]+(::[A-Za-z0-9_.+-]+)*" names "${raw};${iface}")
    foreach(name IN LISTS names)
      if(TARGET "${name}" AND NOT name IN_LIST seen)
        list(APPEND queue "${name}")
      endif()
    endforeach()
  endwhile()
  file(GENERATE OUTPUT "${output}" CONTENT "${content}")
endfunction()

function(gpubarrier_layering_link_graph output)
  # Deferred to the end of the top-level directory, when every target and link is known.
  cmake_language(EVAL CODE
    "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL _gb_layering_write [[${output}]])")
endfunction()
